"""The atlas's grid: every drop policy of the four papers x five TCPs x the papers' scenarios, and how
one cell of the grid becomes an :class:`atmtcp.model.Run` through the papers' own builders.

Scenarios (:data:`SCENARIOS`), each at its paper's settings (buffer, delays, TCP, duration):

- ``goyal_lan``, ``goyal_wan``: goyal1998 3.1's N-source configuration, 5 sources, the smaller table
  buffer (1000 and 12000 cells), 10 s and 20 s (:func:`atmtcp.papers.goyal1998.scenario.goyal_run`);
- ``satellite``: goyal1997's satellite network, 5 sources, 200000 cells, MSS 9180;
- ``cheon_symmetric``, ``cheon_asymmetric``: cheon 2's parking lot, 500-byte packets, 2000 cells
  (:func:`atmtcp.papers.cheon.scenario.cheon_run`);
- ``lakshman_small``, ``lakshman_large``: lakshman's router-ADSU-switch system with Fig. 7's three
  sources of external RTTs 40, 60 and 80 ms (unequal, so that fairness can differ), at 1152 and 5760 cells
  (beta 0.2 and 1; the paper's quick-mode pair) (:func:`atmtcp.papers.lakshman.scenario.lakshman_run`);
- ``ewa_section2``, ``ewa_section43``: ewa's ten connections onto one VC at AAP-1 (section 2, which
  section 4.1 repeats with EWA) and section 4.3's unequal IP delays
  (:func:`atmtcp.papers.ewa.section4.scenario.ewa_run`).

Policies apply at a scenario's layer (:func:`applies`): the cell scenarios take the cell-port policies
(:data:`CELL_POLICIES`), ewa's IP-ATM access point the router-queue policies (:data:`PACKET_POLICIES`).

The TCP axis swaps only the flavour (:data:`TCPS`): vanilla, Reno, New Reno and SACK replace the
``flavor`` of each connection's TCP as the scenario's paper configures it
(:func:`atmtcp.variations.with_tcp`); ``bsd44`` is 4.4BSD-Lite's Reno (:meth:`atmtcp.model.TcpConfig.bsd44`,
the profile of the fidelity work) with the scenario's own numbers (segment size, window, initial
ssthresh, ACK delay) kept and every setting of :data:`atmtcp.model.BSD44_PROFILE` taken from 4.4BSD-Lite,
what a paper states included: the papers' networks run by a stock 1990s TCP.

:data:`PARAMETER_RULE`: where a policy needs a parameter the scenario's paper does not give.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import model as m
from ..contention import HEADLINE_CONTENTION, with_contention
from ..internetwork import ROUTER_POLICIES
from ..kernel.aal5 import packet_cells
from ..variations import with_switch_port, with_tcp
from ..papers.cheon import scenario as cheon
from ..papers.ewa.section2 import scenario as ewa2
from ..papers.ewa.section4 import scenario as ewa4
from ..papers.goyal1998.scenario import NETWORKS, goyal_run
from ..papers.lakshman import experiments as lakshman_experiments
from ..papers.lakshman import scenario as lakshman

SPLIT = {"red": ("red_cell", "red_frame")}
"""Model policies the atlas runs in two forms: RED per cell and per frame (lakshman 2.2, 5)."""
FRONT_DISCIPLINES = ("cell_front", "frame_front")
"""lakshman 3's Cell-Front and Frame-Front: tail drop at a held port that drops at the front."""
CELL_POLICIES = (tuple(p for p in m.POLICIES if p not in SPLIT) + FRONT_DISCIPLINES
                 + tuple(form for forms in SPLIT.values() for form in forms))
"""The cell-port policies, every one of :data:`atmtcp.model.POLICIES` (a new one joins at once, and
:func:`cell_port` refuses it until it is given its parameters): tail drop (goyal1998's UBR, cheon's RCD,
lakshman's Cell-Tail), PPD (cheon; lakshman's Frame-Tail), EPD (goyal1998, cheon), Selective Drop and FBA
(goyal1998), ESPD (cheon), Cell-Front and Frame-Front (lakshman), RED per cell and per frame (lakshman 2.2, 5)."""
PACKET_POLICIES = ROUTER_POLICIES + ("ewa",)
"""The access-point policies of ewa, every one of :data:`atmtcp.internetwork.ROUTER_POLICIES`: Drop-Tail (2),
Drop-from-Front (2.1), RED (2.2), and EWA (3)."""
POLICIES = CELL_POLICIES + PACKET_POLICIES
PAPERS_NAMES = {"tail": "UBR, RCD", "ppd": "Frame-Tail"}
"""The other names the papers give a model policy, shown beside its label."""
LABELS = {**{p: m.POLICY_RECORDS[p].label + (f" ({PAPERS_NAMES[p]})" if p in PAPERS_NAMES else "")
             for p in m.POLICIES if p in CELL_POLICIES},
          "cell_front": "Cell-Front", "frame_front": "Frame-Front", "red_cell": "RED, cells", "red_frame": "RED, frames",
          "drop_tail": "Drop-Tail", "drop_from_front": "Drop-from-Front", "red": "RED", "ewa": "EWA"}
"""Each policy's label in the atlas's tables and figures: a model policy's own
(:attr:`atmtcp.model.PolicyRecord.label`)."""

FLAVORS = m.FLAVORS
TCPS = FLAVORS + ("bsd44",)
TCP_LABELS = {**m.FLAVOR_LABELS, "bsd44": "4.4BSD Reno"}

PARAMETER_RULE = (
    "A policy the scenario's paper configures keeps that paper's settings. A parameter the scenario's paper "
    "does not give is taken in the terms of the policy's own paper: where it states a threshold in packets, "
    "as many of the scenario's packets (EPD, cheon 3.2: \"about three packets less than the full buffer size\"; "
    "ESPD, cheon 3.3: threshold 1 \"about six packets less than buffer size\", threshold 2 \"half of buffer "
    "size\"); where it states a fraction of the buffer, the same fraction (Selective Drop and FBA, goyal1998 7: "
    "\"the values of R and Z are chosen to be 0.9 and 0.8\"); ESPD's drop timer, a time, is cheon's symmetric "
    "25 ms and its drop-list threshold \"20 % of total number of sessions\"; RED's probabilities are lakshman 5's "
    "only stated range, 10^-12 (one cell) to 1 (full buffer); drop from front needs no parameter.")
"""The one rule for the parameters a scenario's paper does not give (docs/atlas.md, the notebook)."""

EPD_PACKETS_BELOW = 3
ESPD_PACKETS_BELOW = 6
SD_FBA_R, SD_FBA_Z = 0.9, 0.8
RED_ONE, RED_FULL = 1e-12, 1.0
ESPD_TIMER_S = cheon.CASES["symmetric"]["drop_timer_s"]


DERIVED = ("epd", "selective_drop", "fba", "espd")
"""The cell-port policies whose parameters depend on the scenario's buffer and packet (:func:`derived_policy`)."""
FIXED_PORTS = {"tail": (m.DropPolicy("tail"), "none"), "ppd": (m.DropPolicy("ppd"), "none"),
               "cell_front": (m.DropPolicy("tail"), "cell"), "frame_front": (m.DropPolicy("tail"), "frame"),
               "red_cell": (m.DropPolicy("red", red_one=RED_ONE, red_full=RED_FULL), "none"),
               "red_frame": (m.DropPolicy("red", red_one=RED_ONE, red_full=RED_FULL, red_frames=True), "none")}
"""The other cell-port policies, the same in every scenario: (drop policy, drop from front)."""


def derived_policy(policy: str, buffer: int, cells: int) -> m.DropPolicy:
    """The :class:`~atmtcp.model.DropPolicy` of a threshold policy in a scenario whose paper does not
    configure it (:data:`PARAMETER_RULE`); ``cells``: the scenario's data packet in cells."""
    if policy == "epd":
        return m.DropPolicy("epd", threshold=max(1, buffer - EPD_PACKETS_BELOW * cells))
    if policy in ("selective_drop", "fba"):
        return m.DropPolicy(policy, threshold=int(round(SD_FBA_R * buffer)), z=SD_FBA_Z)
    if policy == "espd":
        return m.DropPolicy("espd", threshold=max(2, buffer - ESPD_PACKETS_BELOW * cells), threshold2=buffer // 2,
                            drop_timer_s=ESPD_TIMER_S)
    raise m.ModelError("derived_policy", "policy", policy, "one of 'epd', 'selective_drop', 'fba', 'espd'")


def cell_port(policy: str, buffer: int, cells: int) -> m.PortConfig:
    """A cell port of ``policy`` (:data:`CELL_POLICIES`) with the parameters of :data:`PARAMETER_RULE`,
    before the scenario adds how its cells contend (slotted ports)."""
    if policy in DERIVED:
        return m.PortConfig(buffer, derived_policy(policy, buffer, cells))
    if policy not in FIXED_PORTS:
        raise m.ModelError("cell_port", "policy", policy, f"one of {CELL_POLICIES}, each in atmtcp.atlas.grid's "
                           "DERIVED or FIXED_PORTS")
    drop, front = FIXED_PORTS[policy]
    return m.PortConfig(buffer, drop, drop_from_front=front)


# --- the scenarios --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scenario:
    """One network of the grid: its paper, the layer its policies act at, the run's length in quick mode
    (full mode runs the paper's own), and how a (policy, seed, quick) becomes a run."""

    key: str
    title: str
    paper: str
    layer: str
    quick_duration_s: float
    build: object
    connections: int

    def run(self, policy: str, tcp: str, seed: int, quick: bool) -> m.Run:
        """The run of one grid cell (:func:`applies` must hold)."""
        if not applies(policy, self):
            raise m.ModelError(f"atlas scenario {self.key}", "policy", policy,
                               f"a {self.layer} policy, one of {policies_of(self.layer)}")
        return with_flavour(self.build(policy, seed, self.length(quick)), tcp)

    def length(self, quick: bool) -> float | None:
        """The run's length: ``None`` (the paper's own) in full mode."""
        return self.quick_duration_s if quick else None


GOYAL_SOURCES = 5
GOYAL_OWN = {"tail": "ubr", "epd": "epd", "selective_drop": "selective_drop", "fba": "fba"}
"""goyal1998's policy columns (:func:`atmtcp.papers.goyal1998.scenario.policy_config`)."""


def goyal(network: str):
    """A builder of goyal1998's (goyal1997's) N-source runs in ``network``."""
    buffer = NETWORKS[network]["buffers"][0]

    def build(policy: str, seed: int, duration_s: float | None) -> m.Run:
        run = goyal_run(network, GOYAL_SOURCES, buffer, GOYAL_OWN.get(policy, "ubr"), "reno", seed, False,
                        duration_s=duration_s)
        if policy in GOYAL_OWN:
            return run
        cells = packet_cells(run.connections[0].tcp.mss, run.aal5.overhead_bytes)
        return with_switch_port(run, with_contention(cell_port(policy, buffer, cells), HEADLINE_CONTENTION))
    return build


CHEON_PAYLOAD = 500
CHEON_OWN = {"tail": "rcd", "ppd": "ppd", "epd": "epd", "espd": "espd"}


def cheon_builder(case: str):
    """A builder of cheon's parking-lot runs of ``case``, 500-byte packets (Tables 1 and 2)."""

    def build(policy: str, seed: int, duration_s: float | None) -> m.Run:
        run = cheon.cheon_run(case, CHEON_OWN.get(policy, "rcd"), CHEON_PAYLOAD, seed, duration_s, trace=m.TraceConfig())
        if policy in CHEON_OWN:
            return run
        port = cell_port(policy, cheon.BUFFER_CELLS, cheon.cells_per_packet(CHEON_PAYLOAD))
        return with_switch_port(run, replace(port, slotted=cheon.SLOTTED_PORTS))
    return build


LAKSHMAN_RTTS_S = lakshman_experiments.TOTAL_FIGURES["lakshman.fig7"][0]
LAKSHMAN_OWN = {"tail": "cell_tail", "ppd": "frame_tail", "cell_front": "cell_front", "frame_front": "frame_front"}


def lakshman_port(policy: str, buffer: int) -> m.PortConfig:
    """lakshman's own disciplines and RED (:func:`~atmtcp.papers.lakshman.scenario.discipline_port`,
    :func:`~atmtcp.papers.lakshman.scenario.red_port`); the others by :data:`PARAMETER_RULE`, slotted."""
    if policy in LAKSHMAN_OWN:
        return lakshman.discipline_port(LAKSHMAN_OWN[policy], buffer)
    if policy in ("red_cell", "red_frame"):
        return lakshman.red_port(buffer, RED_ONE, RED_FULL, frames=policy == "red_frame")
    cells = packet_cells(lakshman.MSS, lakshman.AAL5.overhead_bytes)
    return replace(cell_port(policy, buffer, cells), slotted=True)


def lakshman_builder(buffer: int):
    """A builder of lakshman's system with Fig. 7's sources at ``buffer`` cells; the warm-up is the paper's
    10 s of 40 (a quarter of any shorter run)."""

    def build(policy: str, seed: int, duration_s: float | None) -> m.Run:
        duration = duration_s or lakshman_experiments.DURATION_S
        warmup = lakshman_experiments.WARMUP_S * duration / lakshman_experiments.DURATION_S
        return lakshman.lakshman_run(LAKSHMAN_RTTS_S, lakshman_port(policy, buffer), seed, duration, warmup)
    return build


EWA_PORTS = {"drop_tail": "ewa.fig5", "drop_from_front": "ewa.fig7", "red": "ewa.fig9"}
"""Section 2's AAP-1 ports (:func:`atmtcp.papers.ewa.section2.scenario.aap1_port`): Drop-Tail and
Drop-from-Front on 200 KB, RED with max_p 0.02 on 110 packets. Section 4.3 has section 2's 200 KB buffer, so the same ports."""


def ewa_builder(s: ewa4.EwaScenario):
    """A builder of ewa's section 4 scenario ``s`` (:func:`~atmtcp.papers.ewa.section4.scenario.ewa_run`, EWA
    at AAP-1), AAP-1's port swapped for section 2's for the discard policies."""

    def build(policy: str, seed: int, duration_s: float | None) -> m.Run:
        run = ewa4.ewa_run(s if duration_s is None else replace(s, duration_s=duration_s), seed)
        if policy == "ewa":
            return run
        port = ewa2.aap1_port(EWA_PORTS[policy])
        return replace(run, network=replace(run.network, router_ports=(("AAP1->ATM", port),)))
    return build


SCENARIOS = {s.key: s for s in (
    Scenario("goyal_lan", "goyal1998 LAN, 5 sources, 1000 cells", "goyal1998", "cell", 1.0, goyal("lan"),
             GOYAL_SOURCES),
    Scenario("goyal_wan", "goyal1998 WAN, 5 sources, 12000 cells", "goyal1998", "cell", 2.0, goyal("wan"),
             GOYAL_SOURCES),
    Scenario("satellite", "goyal1997 satellite, 5 sources, 200000 cells", "goyal1997", "cell", 6.0,
             goyal("satellite"), GOYAL_SOURCES),
    Scenario("cheon_symmetric", "cheon symmetric parking lot, 500-byte packets", "cheon", "cell", 1.5,
             cheon_builder("symmetric"), 10),
    Scenario("cheon_asymmetric", "cheon asymmetric parking lot, 500-byte packets", "cheon", "cell", 3.0,
             cheon_builder("asymmetric"), 10),
    Scenario("lakshman_small", "lakshman, 3 sources 40/60/80 ms, 1152 cells (beta 0.2)", "lakshman", "cell", 6.0,
             lakshman_builder(1152), len(LAKSHMAN_RTTS_S)),
    Scenario("lakshman_large", "lakshman, 3 sources 40/60/80 ms, 5760 cells (beta 1)", "lakshman", "cell", 6.0,
             lakshman_builder(5760), len(LAKSHMAN_RTTS_S)),
    Scenario("ewa_section2", "ewa section 2 (4.1): ten connections, 10 -> 5 -> 2", "ewa", "packet", 3.0,
             ewa_builder(ewa4.SMALL_IP), ewa4.SMALL_IP.n),
    Scenario("ewa_section43", "ewa section 4.3: unequal IP delays 1-5 ms", "ewa", "packet", 3.0,
             ewa_builder(ewa4.UNEQUAL_IP), ewa4.UNEQUAL_IP.n),
)}


def policies_of(layer: str) -> tuple[str, ...]:
    """The policies at a scenario's layer: :data:`CELL_POLICIES` for ``"cell"``, else :data:`PACKET_POLICIES`."""
    return CELL_POLICIES if layer == "cell" else PACKET_POLICIES


def applies(policy: str, scenario: Scenario) -> bool:
    """Whether ``policy`` acts at ``scenario``'s layer (cell ports or the access point's queue)."""
    if policy not in POLICIES:
        raise m.ModelError("atlas", "policy", policy, f"one of {POLICIES}")
    return policy in policies_of(scenario.layer)


def with_flavour(run: m.Run, tcp: str) -> m.Run:
    """``run`` with each connection's TCP of flavour ``tcp`` (:data:`TCPS`; see the module docstring)."""
    if tcp in FLAVORS:
        return with_tcp(run, lambda i, config: {"flavor": tcp})
    if tcp == "bsd44":
        return with_tcp(run, lambda i, config: {"flavor": "reno", **m.BSD44_PROFILE})
    raise m.ModelError("atlas", "tcp", tcp, f"one of {TCPS}")
