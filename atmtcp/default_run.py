"""The run ``atmtcp run`` describes by its flags: goyal1998's N-source configuration, the default
scenario of the command line (``atmtcp run``, ``atmtcp bench``) and of :mod:`atmtcp.explore`.

The network's parameters and the TCP are goyal1998's (:mod:`atmtcp.n_source`); the
switch port is the flags' own, as the user gives it (no policy column of the paper), and the cells
contend as :data:`atmtcp.contention.HEADLINE_CONTENTION` says unless ``contention`` names another way.
"""
from __future__ import annotations

from . import model as m
from .contention import HEADLINE_CONTENTION
from .n_source import NETWORKS, goyal_tcp
from .topologies import n_source_run


def scenario(network: str, sources: int, buffer: int | None, policy: str, tcp: str,
             duration: float | None = None, seed: int = 0, jitter: float = 0.0,
             z: float | None = None, threshold: int | None = None, contention: str | None = None) -> m.Run:
    """The goyal1998 N-source run that ``atmtcp run`` describes by flags. Every argument is checked as
    the command line's flag is (:class:`atmtcp.model.ModelError` naming it).

    Parameters
    ----------
    network : str
        A key of :data:`atmtcp.n_source.NETWORKS` (``"lan"``, ``"wan"``, ``"satellite"``): the link
        delays, the receiver window, the segment size and the default duration.
    sources : int
        The number of sources.
    buffer : int or None
        The bottleneck's buffer in cells; ``None``: infinite.
    policy : str
        The drop policy, one of :data:`atmtcp.model.POLICIES`.
    tcp : str
        The TCP flavour, one of :data:`atmtcp.model.FLAVORS` (goyal1998's TCP, :func:`atmtcp.n_source.goyal_tcp`).
    duration : float, optional
        Simulated seconds; the network's own by default.
    seed : int
        The run's random stream.
    jitter : float
        Spread of the sources' start times (s); 0: all at t = 0.
    z, threshold : optional
        Z and the threshold R (cells), only for the policies that have them (``None``: the policy's
        default, e.g. Z = 0.8 and EPD's buffer - 200 cells).
    contention : str, optional
        One of :data:`atmtcp.contention.CELL_ASSUMPTIONS`; the reproduction's by default.

    Returns
    -------
    atmtcp.model.Run

    Raises
    ------
    atmtcp.model.ModelError
        Naming the argument out of its range (``network`` unknown; the others as the model checks them).
    """
    if network not in NETWORKS:
        raise m.ModelError("scenario", "network", network, f"one of {tuple(NETWORKS)}")
    params = NETWORKS[network]
    given = {name: value for name, value in (("threshold", threshold), ("z", z)) if value is not None}
    port = m.PortConfig(buffer, m.DropPolicy(policy, **given))
    config = goyal_tcp(tcp, params.get("mss", 512), params["rcv_wnd"])
    return n_source_run(sources, params["delay_s"], port, config,
                        duration if duration is not None else params["duration_s"], seed, jitter,
                        trunk_delay_s=params.get("trunk_delay_s"), contention=contention or HEADLINE_CONTENTION)
