"""IP networks joined by a rate-controlled ATM network (ewa 2, Fig. 1): the model layer.

An :class:`Internetwork` has hosts on IP links to routers, and ATM switches between routers. A
router's port towards an ATM switch is an *ATM access point* (AAP, ewa 2: "We will refer to the
routers at the boundary between the two networks as ATM Access Points (AAPs) and to the LAN
segments as IP networks"): it segments each IP packet with AAL5 and sends its cells at the VC's
rate. Connections between the same pair of AAPs share one VC ("Multiple TCP connections set up
between the same pair of source and destination IP networks will be multiplexed into a single ATM
virtual circuit"); those towards different AAPs use different VCs ("TCP connections destined to
different IP networks will be carried over separate VCs").

Like :mod:`atmtcp.model`, every dataclass checks its fields on creation and a bad value raises
:class:`~atmtcp.model.ModelError` naming the field; what needs the connections (a buffer smaller
than a packet, a RED threshold above a buffer counted in bytes) is checked when the run is compiled
(:mod:`atmtcp.compile.packets`), still before the kernel runs. :class:`~atmtcp.model.Run` takes an
Internetwork as its ``network``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import model as m
from .kernel import layout as L
from .model import ModelError, _boolean, _check, _positive

ROUTER_POLICIES = L.ROUTER_POLICY_NAMES


@dataclass(frozen=True)
class RouterPolicy:
    """A router queue's drop policy (:func:`atmtcp.kernel.packets.admit_packet`).

    - ``drop_tail`` (ewa 2): "the packet that arrives at a full buffer is dropped".
    - ``drop_from_front`` (ewa 2.1): at a full queue the packet at the head is dropped, or the one
      after it if the head's service has started; "The arriving packet is always accepted".
    - ``red``: Floyd and Jacobson's Random Early Detection (ewa 2.2 "a low threshold min_th and a
      high threshold max_th ... varying linearly from zero to a pre-determined maximum value
      max_p"), on the average queue in packets with weight ``weight`` (w_q), with the count-based
      spacing of drops of the RED paper. ewa gives min_th, max_th and max_p; the weight is not
      given: 0.002, the value of Floyd and Jacobson's own simulations. ``gentle``: Floyd's later
      (2000) ramp of the drop probability from max_p at max_th to 1 at 2 max_th, instead of dropping
      every arrival above max_th (a study, ``ewa.red_study``; off in every paper's run).

    Parameters
    ----------
    kind : str
        ``"drop_tail"``, ``"drop_from_front"`` or ``"red"`` (:data:`ROUTER_POLICIES`).
    min_th, max_th : float
        RED's thresholds on the average queue (packets; default 5 and 15).
    max_p : float
        RED's drop probability at ``max_th`` (default 0.02).
    weight : float
        RED's w_q (default 0.002).
    gentle : bool
        Floyd's gentle ramp above ``max_th`` (default False).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    kind: str = "drop_tail"
    min_th: float = 5.0
    max_th: float = 15.0
    max_p: float = 0.02
    weight: float = 0.002
    gentle: bool = False

    def __post_init__(self):
        _check(self.kind in ROUTER_POLICIES, "RouterPolicy", "kind", self.kind, f"one of {ROUTER_POLICIES}")
        finite = isinstance(self.min_th, (int, float)) and not isinstance(self.min_th, bool) and \
            math.isfinite(self.min_th) and self.min_th >= 0
        _check(finite, "RouterPolicy", "min_th", self.min_th, "a number >= 0 (packets)")
        _positive("RouterPolicy", "max_th", self.max_th)
        _check(self.max_th > self.min_th, "RouterPolicy", "max_th", self.max_th,
               f"above min_th = {self.min_th:g} packets")
        _positive("RouterPolicy", "max_p", self.max_p, at_most=1.0)
        _positive("RouterPolicy", "weight", self.weight, at_most=1.0)
        _boolean("RouterPolicy", "gentle", self.gentle)


EWA_FEEDBACKS = ("log", "linear")


@dataclass(frozen=True)
class Ewa:
    """Explicit Window Adaptation at a router queue (ewa 3; :mod:`atmtcp.kernel.ewa`): every ACK
    returning to the sources of the queue's data has its advertised window marked down to
    ``max(min(W_r, f(B - Q)), MSS)`` (eq. 3.1) as it passes the queue's router.

    - ``feedback``: ``"log"``, ``f = alpha log2(B - Q)`` (eq. 3.4, the paper's scheme), or
      ``"linear"``, ``f = alpha (B - Q)`` (eq. 3.3, section 3.1's first attempt, Fig. 13); B and Q
      in packets ("expressed in terms of number of packets rather than bytes").
    - ``alpha``: its initial value ("In all our simulation experiments, we used an initial value of
      1 for alpha"); ``adaptive=False`` keeps it fixed (section 3.1's example: "Let the parameter
      alpha be 1").
    - Section 3.2's adaptation: the average queue by a first-order filter of gain ``gain`` ("the
      gain g is set to 1/128"), sampled at each ACK processed (our choice: the paper does not say
      where its sampling points are); every ``period_s`` ("The update interval T was chosen as 10
      milliseconds") alpha += ``w_up`` below ``low`` x B and ``alpha *= w_down`` above ``high`` x B
      ("we set the high and the low thresholds to 60% and 20%"; "w_up and w_down ... to 1/8 and
      (1-1/32)").

    The queue needs a finite buffer (B): ``buffer_packets``, else as many of its largest packets as
    ``buffer_bytes`` holds.

    Parameters
    ----------
    feedback : str
        ``"log"`` or ``"linear"`` (default ``"log"``).
    alpha : float
        alpha's initial value (default 1).
    adaptive : bool
        Whether alpha adapts (section 3.2; default True).
    gain : float
        The average queue's filter gain (default 1/128).
    low, high : float
        The thresholds, as shares of B (default 0.2 and 0.6).
    w_up, w_down : float
        alpha's additive step and multiplicative factor (default 1/8 and 1 - 1/32).
    period_s : float
        The update interval T (s; default 0.01).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    feedback: str = "log"
    alpha: float = 1.0
    adaptive: bool = True
    gain: float = 1 / 128
    low: float = 0.2
    high: float = 0.6
    w_up: float = 1 / 8
    w_down: float = 1 - 1 / 32
    period_s: float = 0.01

    def __post_init__(self):
        _check(self.feedback in EWA_FEEDBACKS, "Ewa", "feedback", self.feedback, f"one of {EWA_FEEDBACKS}")
        _positive("Ewa", "alpha", self.alpha, at_most=1e6)
        _boolean("Ewa", "adaptive", self.adaptive)
        _positive("Ewa", "gain", self.gain, at_most=1.0)
        for name in ("low", "high"):
            value = getattr(self, name)
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1
            _check(ok, "Ewa", name, value, "a fraction of the buffer in [0, 1]")
        _check(self.high > self.low, "Ewa", "high", self.high, f"above low = {self.low:g}")
        _positive("Ewa", "w_up", self.w_up, at_most=1e6)
        _positive("Ewa", "w_down", self.w_down)
        _check(self.w_down < 1, "Ewa", "w_down", self.w_down, "below 1 (a multiplicative decrease)")
        _positive("Ewa", "period_s", self.period_s, at_most=m.MAX_TIME_S)
        _check(self.period_s >= 1e-6, "Ewa", "period_s", self.period_s, "at least 1e-6 s")


@dataclass(frozen=True)
class PriorityVc:
    """A high-priority ON/OFF VC on an ATM access point's link, served before the port's own VC
    (ewa 4.5: "opening and closing a high-priority ATM connection that shares the same link L1 with
    the aggregate TCP traffic ... the duration of the ON and OFF periods is exponentially
    distributed with a mean of 50 milliseconds. When in the ON state, the high priority connection
    is allocated 75 Mbits/sec"; :mod:`atmtcp.kernel.priority`). Off at t = 0.

    Parameters
    ----------
    rate_bps : float
        The VC's rate while ON (bit/s; default 75 Mbit/s).
    mean_on_s, mean_off_s : float
        The mean ON and OFF periods (s; default 0.05 each).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    rate_bps: float = 75e6
    mean_on_s: float = 0.05
    mean_off_s: float = 0.05

    def __post_init__(self):
        _positive("PriorityVc", "rate_bps", self.rate_bps, at_most=1e13)
        for name in ("mean_on_s", "mean_off_s"):
            _positive("PriorityVc", name, getattr(self, name), at_most=m.MAX_TIME_S)
            _check(getattr(self, name) >= 1e-6, "PriorityVc", name, getattr(self, name), "at least 1e-6 s")


@dataclass(frozen=True)
class RouterPort:
    """A router output port: its buffer and policy and, at an ATM access point, its VCs.

    ``buffer_bytes`` and ``buffer_packets`` bound the queue in IP bytes and in packets (ewa counts
    both: "The buffer size at AAP-1 was set to 200 Kbytes", "set to 110 packets"); ``None`` leaves
    that bound off, both ``None`` is an infinite buffer (it never drops). A buffer counts IP
    datagrams (TCP payload + TCP/IP headers), not their AAL5 cells.

    At an AAP (a port towards an ATM switch): ``per_vc_queues`` gives each VC its own queue with
    this buffer, served cell by cell in round robin (ewa 2: "per-VC queuing and scheduling in the
    AAPs to provide isolation between the different ATM virtual circuits"; "The buffer size for
    each ATM connection at the ATM layer in AAP-1 was set to 64 KBytes"); off, the VCs share one
    FIFO. ``vc_rate_bps`` is each VC's cell rate (the rate the ATM network allocates it, at most
    the link's; ``None``: the link's rate). ``priority_vc``: a :class:`PriorityVc` sharing the link,
    served first (one FIFO and a finite buffer only).

    ``ewa``: Explicit Window Adaptation on this port's queue(s), each queue its own instance (ewa 5:
    "each partition must be controlled by a separate instance of EWA"); needs a finite buffer.

    Parameters
    ----------
    buffer_bytes : int, optional
        The bound in IP bytes; None: none.
    buffer_packets : int, optional
        The bound in packets; None: none.
    policy : RouterPolicy
        The drop policy (default drop tail).
    per_vc_queues : bool
        One queue per VC (an AAP only; default False).
    vc_rate_bps : float, optional
        Each VC's cell rate (bit/s); None: the link's.
    ewa : Ewa, optional
        Explicit Window Adaptation on the queue(s); None: off.
    priority_vc : PriorityVc, optional
        A priority VC on the link; None: none.

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    buffer_bytes: int | None = None
    buffer_packets: int | None = None
    policy: RouterPolicy = field(default_factory=RouterPolicy)
    per_vc_queues: bool = False
    vc_rate_bps: float | None = None
    ewa: Ewa | None = None
    priority_vc: PriorityVc | None = None

    def __post_init__(self):
        for name in ("buffer_bytes", "buffer_packets"):
            value = getattr(self, name)
            if value is not None:
                _positive("RouterPort", name, value, integer=True, at_most=m.MAX_BUFFER_CELLS * 53)
        _check(isinstance(self.policy, RouterPolicy), "RouterPort", "policy", self.policy,
               "a RouterPolicy (e.g. RouterPolicy('red', 15, 30, 0.02))")
        _boolean("RouterPort", "per_vc_queues", self.per_vc_queues)
        if self.vc_rate_bps is not None:
            _positive("RouterPort", "vc_rate_bps", self.vc_rate_bps, at_most=1e13)
        if self.infinite:
            _check(self.policy.kind == "drop_tail", "RouterPort", "policy", self.policy.kind,
                   "'drop_tail' with an infinite buffer (nothing is ever dropped)")
            _check(not self.per_vc_queues, "RouterPort", "per_vc_queues", self.per_vc_queues,
                   "False with an infinite buffer (each VC's queue needs buffer_bytes or buffer_packets)")
        _check(self.ewa is None or isinstance(self.ewa, Ewa), "RouterPort", "ewa", self.ewa, "None or an Ewa")
        _check(self.ewa is None or not self.infinite, "RouterPort", "ewa", self.ewa,
               "None with an infinite buffer (EWA's feedback is a function of the free buffer B - Q)")
        if self.priority_vc is not None:
            _check(isinstance(self.priority_vc, PriorityVc), "RouterPort", "priority_vc", self.priority_vc,
                   "None or a PriorityVc")
            _check(not self.per_vc_queues and not self.infinite, "RouterPort", "priority_vc", self.priority_vc,
                   "None unless the port has one FIFO with a finite buffer")
        if self.policy.kind == "red" and self.buffer_packets is not None:
            _check(self.policy.max_th <= self.buffer_packets, "RouterPolicy", "max_th", self.policy.max_th,
                   f"at most the buffer, buffer_packets = {self.buffer_packets}")

    @property
    def infinite(self) -> bool:
        """Whether the buffer is unbounded (neither ``buffer_bytes`` nor ``buffer_packets`` given)."""
        return self.buffer_bytes is None and self.buffer_packets is None


@dataclass(frozen=True)
class Internetwork:
    """Hosts, routers and ATM switches (ewa Fig. 1).

    Every host has one IP link, to a router (its IP network's router); ATM switches link only to
    routers and to each other. A link between a router and a host or another router is an IP link
    (whole packets); one that touches an ATM switch is an ATM link (cells). Each direction of a link
    is an output port, named ``"node->neighbour"``; a router port takes the :class:`RouterPort` of
    ``router_ports`` by that name, else an infinite buffer. The ATM network is rate-controlled and
    loss-free (ewa 2: "an efficient rate allocation algorithm in the ATM network ... providing the
    three VCs with a fair and loss-free environment"): its switches add one cell time and their
    links' delays, and queue nothing.

    Parameters
    ----------
    hosts, routers, atm_switches : tuple of str
        The node names.
    links : tuple of atmtcp.model.Link
        The links.
    router_ports : tuple of (str, RouterPort)
        Router ports of their own, by name ``"node->neighbour"``.

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    hosts: tuple[str, ...]
    routers: tuple[str, ...]
    atm_switches: tuple[str, ...]
    links: tuple[m.Link, ...]
    router_ports: tuple[tuple[str, RouterPort], ...] = ()

    def __post_init__(self):
        names = list(self.hosts) + list(self.routers) + list(self.atm_switches)
        _check(len(self.hosts) >= 2, "Internetwork", "hosts", self.hosts, "at least two host names")
        _check(len(self.routers) >= 1, "Internetwork", "routers", self.routers, "at least one router name")
        _check(len(set(names)) == len(names) and all(isinstance(n, str) and n for n in names),
               "Internetwork", "hosts", names, "unique, non-empty node names")
        known, hosts, routers = set(names), set(self.hosts), set(self.routers)
        host_links: dict[str, int] = {}
        for link in self.links:
            _check(isinstance(link, m.Link), "Internetwork", "links", link, "a tuple of Link")
            for end in ("a", "b"):
                if getattr(link, end) not in known:
                    raise ModelError("Link", end, getattr(link, end), f"a node of the internetwork {sorted(known)}")
            _check(link.cdv_s == 0, "Link", "cdv_s", link.cdv_s, "0 in an Internetwork (no cell delay variation)")
            for here, there in ((link.a, link.b), (link.b, link.a)):
                if here in hosts:
                    _check(there in routers, "Link", "b" if here == link.a else "a", there,
                           f"a router: host {here!r} joins its IP network's router")
                    host_links[here] = host_links.get(here, 0) + 1
        for host in self.hosts:
            _check(host_links.get(host) == 1, "Internetwork", "hosts", host, "a host with exactly one link")
        ports = self.port_names()
        for name, config in self.router_ports:
            if name not in ports or name.split("->")[0] not in routers:
                raise ModelError("Internetwork", "router_ports", name, f"a router port, one of {sorted(ports)}")
            _check(isinstance(config, RouterPort), "Internetwork", "router_ports", config, "a RouterPort")
            towards_atm = name.split("->")[1] in set(self.atm_switches)
            if not towards_atm:
                for option in ("per_vc_queues", "vc_rate_bps", "priority_vc"):
                    _check(not getattr(config, option), "RouterPort", option, getattr(config, option),
                           f"unset at {name!r}: an IP port (only a port towards an ATM switch has VCs)")

    def port_names(self) -> set[str]:
        """Every router port's name, ``"A->B"`` for each direction of each link.

        Returns
        -------
        set of str
        """
        return {f"{l.a}->{l.b}" for l in self.links} | {f"{l.b}->{l.a}" for l in self.links}

    def router_port(self, name: str) -> RouterPort:
        """The configuration of router port ``name`` (an infinite buffer unless given).

        Parameters
        ----------
        name : str
            ``"A->B"``: the port of node A towards node B.

        Returns
        -------
        RouterPort
        """
        return dict(self.router_ports).get(name, RouterPort())
