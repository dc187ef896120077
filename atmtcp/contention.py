"""How cells contend for a switch buffer: the one default for the command line, the Python builders
and the experiments (issue 6, issue 26).

``atmtcp run --contention``, :func:`atmtcp.topologies.n_source_run` and the goyal1998/goyal1997
experiments (:func:`atmtcp.papers.goyal1998.scenario.goyal_run`) all default to
:data:`HEADLINE_CONTENTION`; cheon's and lakshman's scenarios make their switch ports slotted too, each
citing it. The model itself
(:class:`atmtcp.model.PortConfig`) stays literal: its contention options are off unless set.
"""
from __future__ import annotations

from . import model as m

CELL_TIME_S = 53 * 8 / m.OC3_BPS
"""One cell time at 155.52 Mbit/s (2.73 us)."""

CELL_ASSUMPTIONS = {
    # name: (slotted switch ports, randomized tail drop, ATM over SONET, access-link CDV in s)
    "deterministic": (False, False, False, 0.0),
    "randomized_tail": (False, True, False, 0.0),
    "sonet": (False, False, True, 0.0),
    "cdv": (False, False, False, CELL_TIME_S),
    "slotted": (True, False, False, 0.0),
    "slotted_randomized_tail": (True, True, False, 0.0),
    "sonet_cdv": (False, False, True, CELL_TIME_S),
    "all": (True, True, True, CELL_TIME_S),
}
"""How cells contend at a switch (issue 6; see :class:`atmtcp.model.PortConfig`,
:attr:`atmtcp.model.Network.sonet`, :attr:`atmtcp.model.Link.cdv_s`). Randomized tail
drop applies to plain tail drop (UBR) only. The cell delay variation, on the sources'
access links, is at most one cell time: enough for the phases of equal-rate cell streams
to drift, far below every other delay of the papers' networks."""
HEADLINE_CONTENTION = "slotted"
"""The assumption of the goyal1998/goyal1997 headline runs, chosen from the evidence of
``goyal1998.ubr_sensitivity`` (the documentation's Modelling choices): the paper's Table 2 gives plain
UBR a LAN fairness of 0.31-0.97, never the exact 1/N that phase lock produces, so its
simulator let cells contend for a freed buffer place without a fixed winner; of the
assumptions that do, slotted switch ports keep the 155.52 Mbit/s links and C = 125.2 Mbit/s
of section 3.2, add no delay variation (goyal1997: "delay variation = 0") and no drop rule
the paper does not state, and come closest to Tables 1, 2, 4, 5 (mean ``|difference|`` 0.062
against 0.138 deterministic)."""


def cell_contention(name: str, owner: str = "goyal_run", field: str = "assumption") -> tuple:
    """``(slotted, randomized_tail, sonet, access_cdv_s)`` of the assumption ``name`` in
    :data:`CELL_ASSUMPTIONS`; a :class:`~atmtcp.model.ModelError` on ``owner.field`` otherwise."""
    if name not in CELL_ASSUMPTIONS:
        raise m.ModelError(owner, field, name, f"one of {tuple(CELL_ASSUMPTIONS)}")
    return CELL_ASSUMPTIONS[name]


def with_contention(port: m.PortConfig, name: str, owner: str = "n_source_run") -> m.PortConfig:
    """``port`` with the switch-port options of the assumption ``name`` added to its own (randomized
    tail drop only where the port drops plain cells at its tail, as the assumption defines it). An
    option the port sets itself is kept: ``"deterministic"`` adds nothing."""
    import dataclasses
    slotted, randomized_tail, _, _ = cell_contention(name, owner, "contention")
    tail = port.policy.kind == "tail" and port.buffer_cells is not None
    return dataclasses.replace(port, slotted=port.slotted or slotted,
                               randomized_tail=port.randomized_tail or (randomized_tail and tail))

