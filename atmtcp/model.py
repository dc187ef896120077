"""Typed, validated description of a network and a run.

Every dataclass checks its fields in ``__post_init__``; a bad value raises
:class:`ModelError` naming the field, the value and what is allowed, before the kernel
ever sees it. :func:`atmtcp.compile.compile_run` turns a valid :class:`Run` into the
kernel's arrays.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import ClassVar

from .kernel import layout as L

OC3_BPS = 155.52e6
"""SONET OC-3 / STS-3c line rate used by all four papers' ATM links."""
SONET_PAYLOAD_FRACTION = 26 / 27
"""STS-3c payload / line rate: 149.76 of 155.52 Mbit/s (260 of 270 columns of the SONET
frame carry cells; the rest is section, line and path overhead)."""

POLICIES = L.POLICY_NAMES
"""The switch drop policies, by the kernel's names (:data:`atmtcp.kernel.layout.POLICY_NAMES`), each
with its record (:data:`POLICY_RECORDS`)."""
FRONT_DROPS = L.FRONT_DROP_NAMES
"""PortConfig.drop_from_front: lakshman's Cell-Front and Frame-Front (section 3), or none; by the kernel's
names (:data:`atmtcp.kernel.layout.FRONT_DROP_NAMES`, in the order of its codes)."""
LOSS_DETECTIONS = L.LOSS_DETECTION_NAMES
"""How a TCP learns of a loss: the retransmission timeout only, also three duplicate ACKs (goyal1998 5.1),
or also the SACK option's blocks (5.4.1); by the kernel's names
(:data:`atmtcp.kernel.layout.LOSS_DETECTION_NAMES`, in the order of its codes ``DETECT_*``)."""
RECOVERIES = L.RECOVERY_NAMES
"""What a TCP does from the third duplicate ACK on: nothing (go-back-N after the timeout), Reno's fast
recovery (goyal1998 5.1), New Reno's partial ACKs (5.3), SACK's PIPE (5.4.1); by the kernel's names
(:data:`atmtcp.kernel.layout.RECOVERY_NAMES`, in the order of its codes ``RECOVERY_*``)."""
FLAVOR_AXES = {
    "vanilla": ("timeout", "none"),
    "reno": ("dupacks", "reno"),
    "newreno": ("dupacks", "newreno"),
    "sack": ("sack", "sack"),
}
"""Each flavour's loss detection and recovery (:data:`LOSS_DETECTIONS`, :data:`RECOVERIES`), after ns-3's
TCP; its window growth is the same for every flavour, set by :class:`TcpConfig`'s ``increase``,
``ssthresh_rule`` and ``recovery_exit_opens``."""
FLAVORS = tuple(FLAVOR_AXES)
"""The TCP flavours, the rows of :data:`FLAVOR_AXES`: ``TcpConfig(flavor=...)`` and ``atmtcp run --tcp``."""
FLAVOR_LABELS = {"vanilla": "vanilla", "reno": "Reno", "newreno": "New Reno", "sack": "SACK"}
"""Each flavour's name as the papers print it (ns-3's ``GetName()``), for tables and figures; one for each
of :data:`FLAVORS` (``tests/model/test_lists.py``)."""
INCREASE_RULES = L.INCREASE_RULE_NAMES
"""Congestion avoidance's increase per ACK (:class:`TcpConfig` ``increase``): goyal1998 2's mss*mss/cwnd in
real numbers, 4.4BSD's integer mss*mss/cwnd + mss/8, the integer mss*mss/cwnd alone (goyal1997's stall), or
that increase once every ``increase_every_n`` ACKs; by the kernel's names
(:data:`atmtcp.kernel.layout.INCREASE_RULE_NAMES`, in the order of its codes ``INC_*``)."""
SSTHRESH_RULES = L.SSTHRESH_RULE_NAMES
"""ssthresh after a loss: goyal1998 2's max{2, min{CWND/2, RCVWND}} or 4.4BSD's min(cwnd, wnd)/2; by the
kernel's names (:data:`atmtcp.kernel.layout.SSTHRESH_RULE_NAMES`, in the order of its codes ``SS_*``)."""
ACTIVE_VCS = ("buffered", "routed")
"""How Selective Drop and FBA count active VCs (:class:`SelectiveDrop` ``active_vcs``)."""
SACK_PIPE_STARTS = L.SACK_PIPE_START_NAMES
"""SACK's PIPE at the third duplicate ACK: goyal1998 5.4.2's "sets PIPE to CWND - 3", or 5.4.1's "PIPE is set
to the value of CWND" (plus one for the fast retransmission, "When a segment is sent, PIPE is incremented by
one"); by the kernel's names (:data:`atmtcp.kernel.layout.SACK_PIPE_START_NAMES`, in the order of its
codes ``PIPE_*``)."""
RETRANSMIT_TIMERS = ("per_connection", "per_segment")
"""How many retransmission timers a sender runs (:attr:`TcpConfig.retransmit_timers`): one per
connection (4.4BSD, every common implementation) or one per outstanding segment (OPNET 2.4's TCP,
cheon section 2)."""


class ModelError(ValueError):
    """A model field holds a value outside its allowed range."""

    def __init__(self, owner: str, name: str, value, allowed: str):
        self.field = f"{owner}.{name}"
        super().__init__(f"{self.field} = {value!r} is not allowed: must be {allowed}")


def _check(ok: bool, owner: str, name: str, value, allowed: str) -> None:
    if not ok:
        raise ModelError(owner, name, value, allowed)


MAX_TIME_S = 1e6
"""Longest duration, delay or start time (about 11.6 days): the kernel counts time in int64
nanoseconds, and nothing in the papers comes near it."""
MAX_BUFFER_CELLS = 10_000_000
"""Largest finite buffer: the kernel keeps 16 bytes per buffer place (160 MB at this size);
the papers' largest is goyal1997's 600000 cells."""
MAX_TRACE_RECORDS = 100_000_000
"""Largest trace: 32 bytes per record (3.2 GB at this size)."""


def _positive(owner, name, value, integer=False, at_most=None):
    kind = int if integer else (int, float)
    ok = isinstance(value, kind) and not isinstance(value, bool) and value > 0
    if ok and not integer:
        ok = math.isfinite(value)
    allowed = "a positive " + ("integer" if integer else "finite number")
    if at_most is not None:
        ok = ok and value <= at_most
        allowed += f" <= {at_most:g}"
    _check(ok, owner, name, value, allowed)


def _non_negative(owner, name, value, at_most=MAX_TIME_S):
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        and 0 <= value <= at_most
    _check(ok, owner, name, value, f"a number in [0, {at_most:g}]")


def _boolean(owner, name, value, allow_none=False):
    ok = isinstance(value, bool) or (allow_none and value is None)
    _check(ok, owner, name, value, "True or False" + (" or None" if allow_none else ""))


# --- switch drop policies: one record per policy --------------------------------------------------------
def _cells_or_none(name: str, value) -> None:
    if value is not None:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        _check(ok, "DropPolicy", name, value, "an integer >= 0 (cells) or None")


@dataclass(frozen=True)
class PolicyRecord:
    """The parameters of a switch port's drop policy: one subclass per name of :data:`POLICIES`,
    made by :func:`DropPolicy`, decided in the kernel by ``atmtcp.kernel.policies.decide_<kind>``.

    A record checks its fields when it is made (a :class:`ModelError` naming ``DropPolicy.<field>``),
    those that depend on the port's buffer in :meth:`check_buffer` (:class:`PortConfig` calls it), and
    writes itself into the port's kernel columns (:meth:`kernel_columns`).
    """

    code: ClassVar[int]
    """The policy's code in the kernel (:mod:`atmtcp.kernel.layout`)."""
    label: ClassVar[str]
    """The policy's name as the papers print it (ns-3's ``GetName()``), for tables and figures."""
    reads_vc_shares: ClassVar[bool] = False
    """The rule reads the VC's cells in the buffer or the active VCs (Y, Na of goyal1998 4.2), so a
    lazy port keeps a ring of its cells' departures (:mod:`atmtcp.kernel.ports`)."""
    needs_buffer_size: ClassVar[bool] = False
    """The rule uses the buffer size K: refused with an infinite buffer."""

    @property
    def kind(self) -> str:
        """The policy's name (one of :data:`POLICIES`)."""
        return POLICIES[self.code]

    def check_buffer(self, buffer_cells: int | None) -> None:
        """Check the parameters against a port's buffer (cells; ``None``: infinite).

        Parameters
        ----------
        buffer_cells : int or None
            The port's buffer (cells); None: infinite.

        Raises
        ------
        ModelError
            If the policy needs the buffer size and the buffer is infinite (or, in a subclass, a threshold
            lies outside the buffer).
        """
        _check(buffer_cells is not None or not self.needs_buffer_size, "PortConfig", "policy", self.kind,
               f"not {self.kind!r} with an infinite buffer (its rule uses the buffer size K)")

    def may_refuse_at_empty(self, buffer_cells: int) -> bool:
        """Whether a cell that finds the buffer (of ``buffer_cells``) empty may be refused: such a
        port is never folded into a fixed delay (:mod:`atmtcp.compile.cell_ports`).

        Parameters
        ----------
        buffer_cells : int
            The port's buffer (cells).

        Returns
        -------
        bool
        """
        return False

    def kernel_columns(self, buffer_cells: int | None, sessions: int) -> tuple[dict[int, int], dict[int, float]]:
        """The port's columns that carry the policy: ``({P_* column: value}, {PF_* column: value})``
        of the kernel's int64 and float64 port tables, for a buffer of ``buffer_cells`` (``None``:
        infinite) crossed by the data of ``sessions`` connections.

        Parameters
        ----------
        buffer_cells : int or None
            The port's buffer (cells); None: infinite.
        sessions : int
            The connections whose data cross the port.

        Returns
        -------
        tuple of (dict, dict)
            The int64 columns and the float64 columns, each ``{column: value}``.
        """
        return {L.P_POLICY: self.code}, {}

    @classmethod
    def parameters(cls) -> tuple[str, ...]:
        """The names of the policy's parameters (its fields).

        Returns
        -------
        tuple of str
        """
        return tuple(f.name for f in dataclasses.fields(cls))


class _Thresholded(PolicyRecord):
    """A policy with a buffer threshold R, ``threshold`` (cells; ``None``: a default derived from
    the buffer size, :meth:`default_threshold`)."""

    def default_threshold(self, buffer_cells: int) -> int:
        """R when none is given, for a buffer of ``buffer_cells``: each policy's own default."""
        raise NotImplementedError

    def resolved_threshold(self, buffer_cells: int | None) -> int:
        """R in cells for a buffer of ``buffer_cells`` (``None`` = infinite: R must be given)."""
        if self.threshold is not None:
            return self.threshold
        if buffer_cells is None:
            raise ModelError("DropPolicy", "threshold", None,
                             f"an explicit number of cells for {self.kind!r} with an infinite buffer")
        return self.default_threshold(buffer_cells)

    def check_buffer(self, buffer_cells: int | None) -> None:
        """As :meth:`PolicyRecord.check_buffer`; with an infinite buffer R must be given."""
        super().check_buffer(buffer_cells)
        if buffer_cells is None:
            _check(self.threshold is not None, "DropPolicy", "threshold", None,
                   f"an explicit number of cells for {self.kind!r} with an infinite buffer "
                   "(the default threshold is derived from the buffer size)")
            return
        r = self.resolved_threshold(buffer_cells)
        _check(r <= buffer_cells, "DropPolicy", "threshold", r,
               f"between 0 and the buffer size K = {buffer_cells} cells")


@dataclass(frozen=True)
class Tail(PolicyRecord):
    """Tail drop (goyal1998 3, the tables' UBR; cheon's random cell discard, RCD): a cell is dropped
    only when it finds the buffer full. No parameters."""

    code: ClassVar[int] = L.TAIL
    label: ClassVar[str] = "Tail"


@dataclass(frozen=True)
class PPD(PolicyRecord):
    """Partial Packet Discard (cheon 3.1's pseudocode): a cell that finds the buffer full puts its VC
    on the drop-list, and every later cell of its packet is discarded, the EOM cell included.

    ``capture_eom``: a dropped EOM cell captures its VC too, as the pseudocode is written ("if the
    buffer is full: discard the cell, capture the VPI/VCI into drop-list" whatever the cell), so the
    VC's next packet is discarded; off, a dropped EOM ends the packet and leaves the VC free
    (:func:`atmtcp.kernel.policies.cell_decision`).

    Parameters
    ----------
    capture_eom : bool
        Whether a dropped EOM cell captures its VC (default False).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    code: ClassVar[int] = L.PPD
    label: ClassVar[str] = "PPD"
    capture_eom: bool = False

    def __post_init__(self):
        _boolean("DropPolicy", "capture_eom", self.capture_eom)

    def kernel_columns(self, buffer_cells, sessions):
        """PPD: the policy and whether a refused cell's EOM is captured (``capture_eom``)."""
        return {L.P_POLICY: self.code, L.P_CAPTURE_EOM: int(self.capture_eom)}, {}


@dataclass(frozen=True)
class _DropList(_Thresholded):
    """The parameters and the columns of the policies that refuse a packet on its first cell and put
    its VC on cheon 3.2's drop-list: :class:`EPD`, and the load-ratio rules of :class:`_LoadRatio`."""

    threshold: int | None = None
    keep_eom: bool = True
    capture_eom: bool = False

    def __post_init__(self):
        _cells_or_none("threshold", self.threshold)
        _boolean("DropPolicy", "keep_eom", self.keep_eom)
        _boolean("DropPolicy", "capture_eom", self.capture_eom)

    def kernel_columns(self, buffer_cells, sessions):
        """EPD, Selective Drop and FBA: the policy, R, and how the EOM of a refused packet is kept or captured."""
        return {L.P_POLICY: self.code, L.P_THRESHOLD: self.resolved_threshold(buffer_cells),
                L.P_KEEP_EOM: int(self.keep_eom), L.P_CAPTURE_EOM: int(self.capture_eom)}, {}


@dataclass(frozen=True)
class EPD(_DropList):
    """Early Packet Discard (cheon 3.2's pseudocode; goyal1998 4.1): a packet whose first cell finds
    ``queue_length >= Threshold`` is discarded; a cell that finds the buffer full puts its VC on the
    drop-list as PPD's does.

    ``threshold`` is R in cells (``None``: buffer - 200 cells, goyal1998 4.1: "200 cells are enough to
    hold one packet each from all 15 TCP connections"). ``keep_eom`` lets the EOM cell of a discarded
    packet through when there is room ("EOM cells enter the buffer whenever the space is available").
    ``capture_eom`` as :class:`PPD`'s.

    Parameters
    ----------
    threshold : int, optional
        R (cells).
    keep_eom : bool
        Whether a discarded packet's EOM cell enters when there is room (default True).
    capture_eom : bool
        As :class:`PPD`'s (default False).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    code: ClassVar[int] = L.EPD
    label: ClassVar[str] = "EPD"

    def default_threshold(self, buffer_cells):
        """EPD: the buffer - 200 cells (goyal1998 4.1: 200 cells hold a packet of each of 15 connections)."""
        return buffer_cells - 200

    def check_buffer(self, buffer_cells):
        """EPD: the default R needs a buffer above 200 cells; then as :meth:`_Thresholded.check_buffer`."""
        if buffer_cells is not None and self.threshold is None and buffer_cells <= 200:
            raise ModelError("DropPolicy", "threshold", None, f"given for a buffer of 200 cells or less (here "
                             f"{buffer_cells}): EPD's default threshold is the buffer - 200 cells (goyal1998 4.1)")
        super().check_buffer(buffer_cells)
        if buffer_cells is not None:
            r = self.resolved_threshold(buffer_cells)
            _check(r >= 1, "DropPolicy", "threshold", r, ">= 1 cell for EPD")

    def may_refuse_at_empty(self, buffer_cells):
        """EPD with R < 1 refuses a packet's first cell even at an empty buffer."""
        return self.resolved_threshold(buffer_cells) < 1  # queue_length < Threshold never holds


@dataclass(frozen=True)
class _LoadRatio(_DropList):
    """The parameters and the columns that :class:`SelectiveDrop` and :class:`FBA` share: those of
    the drop-list, the cutoff or scale factor Z and how the active VCs Na are counted."""

    reads_vc_shares: ClassVar[bool] = True
    z: float = 0.8
    active_vcs: str = "buffered"

    def __post_init__(self):
        super().__post_init__()
        _positive("DropPolicy", "z", self.z)
        _check(self.active_vcs in ACTIVE_VCS, "DropPolicy", "active_vcs", self.active_vcs, f"one of {ACTIVE_VCS}")

    def default_threshold(self, buffer_cells):
        """Selective Drop and FBA: 0.9 K (goyal1998 7: "the values of R and Z are chosen to be 0.9 and 0.8")."""
        return int(round(0.9 * buffer_cells))

    def kernel_columns(self, buffer_cells, sessions):
        """Selective Drop and FBA: as :class:`_DropList`, with Z and how the active VCs are counted."""
        ints, _ = super().kernel_columns(buffer_cells, sessions)
        ints[L.P_ROUTED_VCS] = sessions if self.active_vcs == "routed" else 0
        return ints, {L.PF_Z: self.z}


@dataclass(frozen=True)
class SelectiveDrop(_LoadRatio):
    """Selective Drop (goyal1998 4.2): above the minimum drop threshold R a new packet is dropped when
    its VC's load ratio ``Y * Na / X`` exceeds the cutoff Z; the rest of a refused packet is discarded
    as EPD's (cheon 3.2's drop-list).

    ``threshold`` is R (cells; ``None``: 0.9 x buffer, goyal1998 section 7: "the values of R and Z are
    chosen to be 0.9 and 0.8"), ``z`` is Z, ``active_vcs`` how the active VCs Na are counted: one of
    :data:`ACTIVE_VCS`, "buffered" (the paper's: "a VC is active if it has at least one cell in the
    buffer") or "routed" (every data VC routed through the port; a sensitivity study). ``keep_eom`` and
    ``capture_eom`` as :class:`EPD`'s.

    Parameters
    ----------
    threshold : int, optional
        R (cells).
    z : float
        The cutoff Z (default 0.8).
    active_vcs : str
        ``"buffered"`` or ``"routed"`` (:data:`ACTIVE_VCS`).
    keep_eom, capture_eom : bool
        As :class:`EPD`'s.

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    code: ClassVar[int] = L.SELECTIVE_DROP
    label: ClassVar[str] = "Selective Drop"


@dataclass(frozen=True)
class FBA(_LoadRatio):
    """Fair Buffer Allocation (goyal1998 4.2): above R a new packet is dropped when its VC's load
    ratio ``Y * Na / X`` exceeds ``Z * (K - R) / (X - R)``, ``z`` being the linear scale factor Z. The
    parameters are :class:`SelectiveDrop`'s; the rule needs the buffer size K (no infinite buffer).

    Parameters
    ----------
    threshold, z, active_vcs, keep_eom, capture_eom
        As :class:`SelectiveDrop`'s (``z``: the linear scale factor Z).

    Raises
    ------
    ModelError
        If a field is out of its range, or the buffer is infinite.
    """

    code: ClassVar[int] = L.FBA
    label: ClassVar[str] = "FBA"
    needs_buffer_size: ClassVar[bool] = True


@dataclass(frozen=True)
class ESPD(_Thresholded):
    """Early Selective Packet Discard (cheon 3.3's pseudocode): above buffer threshold 1 the first
    cell of a packet is discarded and its VC captured into the port's drop-list while the list has
    room; a listed VC loses every cell but its EOM, which releases it below buffer threshold 2; the
    drop timer empties the list.

    ``threshold`` is buffer threshold 1 (cells; ``None``: 0.96 x buffer, "about six packets less than
    buffer size", six 12-cell packets below 2000 cells), ``threshold2`` buffer threshold 2 (``None``:
    "half of buffer size"), ``droplist_max`` the drop-list threshold, a number of VCs (``None``: "20 %
    of total number of sessions", those whose data cross the port, at least 1), ``drop_timer_s`` the
    drop timer ("25 msec for symmetric roundtrip time simulations and 75 msec for asymmetric").

    Parameters
    ----------
    threshold : int, optional
        Buffer threshold 1 (cells).
    threshold2 : int, optional
        Buffer threshold 2 (cells).
    droplist_max : int, optional
        The drop-list threshold (VCs).
    drop_timer_s : float
        The drop timer (s; default 0.025).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    code: ClassVar[int] = L.ESPD
    label: ClassVar[str] = "ESPD"
    threshold: int | None = None
    threshold2: int | None = None
    droplist_max: int | None = None
    drop_timer_s: float = 0.025

    def __post_init__(self):
        _cells_or_none("threshold", self.threshold)
        _cells_or_none("threshold2", self.threshold2)
        if self.droplist_max is not None:
            _positive("DropPolicy", "droplist_max", self.droplist_max, integer=True)
        _positive("DropPolicy", "drop_timer_s", self.drop_timer_s, at_most=MAX_TIME_S)
        if self.threshold is not None and self.threshold2 is not None:
            _check(self.threshold2 < self.threshold, "DropPolicy", "threshold2", self.threshold2,
                   f"below buffer threshold 1 = {self.threshold} cells (cheon 3.3 releases below it)")

    def default_threshold(self, buffer_cells):
        """ESPD: threshold 1 at 0.96 K when none is given."""
        return int(round(0.96 * buffer_cells))

    def resolved_threshold2(self, buffer_cells: int | None) -> int:
        """Buffer threshold 2 in cells for a buffer of ``buffer_cells`` (``None`` = infinite).

        Parameters
        ----------
        buffer_cells : int or None
            The port's buffer (cells); None: infinite.

        Returns
        -------
        int

        Raises
        ------
        ModelError
            If the buffer is infinite and ``threshold2`` is not given.
        """
        if self.threshold2 is not None:
            return self.threshold2
        if buffer_cells is None:
            raise ModelError("DropPolicy", "threshold2", None, "an explicit number of cells for 'espd' with an "
                             "infinite buffer")
        return buffer_cells // 2

    def check_buffer(self, buffer_cells):
        """ESPD: both thresholds inside the buffer, threshold 2 below threshold 1."""
        super().check_buffer(buffer_cells)
        if buffer_cells is not None:
            r = self.resolved_threshold(buffer_cells)
            _check(r < buffer_cells, "DropPolicy", "threshold", r,
                   f"below the buffer size K = {buffer_cells} cells (ESPD's buffer threshold 1)")
            r2 = self.resolved_threshold2(buffer_cells)
            given = "" if self.threshold2 is not None else " (not given: half of the buffer, cheon 3.3)"
            _check(r2 < r, "DropPolicy", "threshold2", r2, f"below buffer threshold 1 = {r} cells{given}")

    def kernel_columns(self, buffer_cells, sessions):
        """ESPD: both thresholds, the drop-list's size (20 % of the sessions by default) and the drop timer."""
        return {L.P_POLICY: self.code, L.P_THRESHOLD: self.resolved_threshold(buffer_cells),
                L.P_THRESHOLD2: self.resolved_threshold2(buffer_cells),
                L.P_DROPLIST_MAX: self.droplist_max or max(1, int(round(0.2 * sessions))),
                L.P_DROP_TIMER_NS: int(round(self.drop_timer_s * 1_000_000_000))}, {}


@dataclass(frozen=True)
class CellRED(PolicyRecord):
    """RED as lakshman 2.2 uses it: a drop probability for each buffer occupancy, exponential from
    ``red_one`` (one cell) to ``red_full`` (the buffer full), tested on every arriving cell, or with
    ``red_frames`` on a frame's first cell, dropping whole frames
    (:func:`atmtcp.kernel.policies.red_decision`). Draws come from the run's seeded stream.

    Parameters
    ----------
    red_one : float
        The drop probability at one cell (default 1e-4).
    red_full : float
        The drop probability at a full buffer (default 1).
    red_frames : bool
        Whether a frame's first cell is tested and whole frames dropped (default False: every cell).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    code: ClassVar[int] = L.RED
    label: ClassVar[str] = "RED"
    needs_buffer_size: ClassVar[bool] = True
    red_one: float = 1e-4
    red_full: float = 1.0
    red_frames: bool = False

    def __post_init__(self):
        _positive("DropPolicy", "red_one", self.red_one, at_most=1.0)
        _check(self.red_one <= self.red_full <= 1.0, "DropPolicy", "red_full", self.red_full,
               f"between red_one = {self.red_one:g} and 1 (RED's probability at a full buffer)")
        _boolean("DropPolicy", "red_frames", self.red_frames)

    def kernel_columns(self, buffer_cells, sessions):
        """RED: per frame or per cell, and the log-linear probability's intercept and slope over the buffer."""
        slope = (math.log(self.red_full) - math.log(self.red_one)) / max(1, (buffer_cells or 1) - 1)
        return ({L.P_POLICY: self.code, L.P_RED_FRAME: int(self.red_frames)},
                {L.PF_RED_LOG_ONE: math.log(self.red_one), L.PF_RED_SLOPE: slope})


POLICY_RECORDS = {POLICIES[r.code]: r for r in sorted(
    (Tail, PPD, EPD, SelectiveDrop, FBA, ESPD, CellRED), key=lambda r: r.code)}
"""Each policy's record, by name, in the order of :data:`POLICIES`."""


def policies_with(parameter: str) -> tuple[str, ...]:
    """The policies that have ``parameter``, in the order of :data:`POLICIES`.

    Parameters
    ----------
    parameter : str
        A field name of a policy record, e.g. ``"threshold"``.

    Returns
    -------
    tuple of str
    """
    return tuple(kind for kind, record in POLICY_RECORDS.items() if parameter in record.parameters())


def DropPolicy(kind: str = "tail", **params) -> PolicyRecord:
    """A switch port's drop policy: the record of ``kind`` (one of :data:`POLICIES`) with ``params``,
    e.g. ``DropPolicy("epd", threshold=800)`` is ``EPD(threshold=800)``. A parameter the kind does not
    have is refused (:class:`ModelError` naming it), unless it is ``None`` (not given).

    Parameters
    ----------
    kind : str
        The policy, one of :data:`POLICIES`.
    **params
        The record's fields (:meth:`PolicyRecord.parameters`), e.g. ``threshold``, ``z``.

    Returns
    -------
    PolicyRecord
        The instance of ``kind``'s record (:data:`POLICY_RECORDS`).

    Raises
    ------
    ModelError
        If ``kind`` is unknown, a parameter is not the kind's, or a value is out of range.
    """
    _check(kind in POLICY_RECORDS, "DropPolicy", "kind", kind, f"one of {POLICIES}")
    record = POLICY_RECORDS[kind]
    own = record.parameters()
    for name, value in params.items():
        _check(name in own or value is None, "DropPolicy", name, value,
               f"None ({kind!r} has no parameter {name!r}; its parameters: {', '.join(own) or 'none'})")
    return record(**{name: value for name, value in params.items() if name in own})


@dataclass(frozen=True)
class PortConfig:
    """A switch output port: buffer (cells; ``None`` = infinite, recording the maximum
    queue), drop policy, and two options on how cells contend for the buffer.

    ``randomized_tail`` (lakshman section 3, for tail drop and PPD): "when a cell
    arrives to a full buffer instead of dropping the incoming cell ... the cell dropped is
    equiprobably either the incoming cell or one of the first few (we used the fan-in
    factor ...) cells in the end of the buffer (this is only used to create buffer space,
    FIFO ordering is not violated)". ``fan_in`` is that F; ``None`` counts the input ports
    whose cells the port receives. With PPD (lakshman's Partial Frame Drop at the Tail, 2.1)
    the frame of a queued cell dropped this way loses its cells still to arrive, as the
    arriving cell's frame would (see :mod:`atmtcp.kernel.held_ports`).

    ``slotted``: time at the port runs in cell slots; at each slot's end the port finishes
    the cell in service, then admits the slot's arrivals in a seeded random order
    (lakshman section 3: "The links connected to the switch output port operate in a
    slotted manner"). Off, a cell arriving at the instant another departs takes the freed
    place before any other arrival of that cell time competes for it.

    ``drop_from_front`` (lakshman 3, with plain tail drop): a cell arriving at a full buffer
    enters and the cell at the front is dropped ("In drop from front, when a cell arrives at a
    full buffer, the cell closest to being transmitted is dropped, thus creating space for the
    arriving cell"). ``"cell"`` is Pure Cell Drop at the Front; ``"frame"`` is Partial Frame
    Drop at the Front: "whenever ... the cell at the front of the buffer is dropped, a bit is
    set and all remaining cells of the frame are dropped as they reach the front of the
    buffer", so that "the cell picked for transmission ... is always a cell that does not
    belong to a dropped frame". The front is the cell to be transmitted next: at a slotted
    port the head of the buffer at the slot end, else the cell behind the one in transmission.
    With RED (lakshman 5, Fig. 13: "RED can be used at the front of the buffer or at the tail")
    the cell or frame RED picks, and a full buffer's drop, are taken at the front instead:
    ``drop_from_front="cell"`` for cell-level RED, ``"frame"`` with ``red_frames``.

    The options are off by default; the random ones draw from the run's seeded random stream
    (:attr:`Run.seed`); see :mod:`atmtcp.kernel.held_ports`.

    Parameters
    ----------
    buffer_cells : int, optional
        The buffer (cells); None: infinite.
    policy : PolicyRecord
        The drop policy (:func:`DropPolicy`; default tail drop).
    randomized_tail : bool
        Randomized tail drop (default False).
    fan_in : int, optional
        Its F; None: the port's input ports.
    slotted : bool
        Slotted service (default False).
    drop_from_front : str
        One of :data:`FRONT_DROPS` (default ``"none"``).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    buffer_cells: int | None = None
    policy: PolicyRecord = field(default_factory=Tail)
    randomized_tail: bool = False
    fan_in: int | None = None
    slotted: bool = False
    drop_from_front: str = "none"

    def __post_init__(self):
        _check(isinstance(self.policy, PolicyRecord), "PortConfig", "policy", self.policy,
               "a DropPolicy (e.g. DropPolicy('epd'))")
        _boolean("PortConfig", "randomized_tail", self.randomized_tail)
        _boolean("PortConfig", "slotted", self.slotted)
        _check(self.drop_from_front in FRONT_DROPS, "PortConfig", "drop_from_front", self.drop_from_front,
               f"one of {FRONT_DROPS}")
        if self.drop_from_front != "none":
            _check(self.policy.kind in ("tail", "red"), "PortConfig", "drop_from_front", self.drop_from_front,
                   f"'none' with the {self.policy.kind!r} policy (lakshman drops from the front of a plain FIFO, "
                   "or with RED)")
            if self.policy.kind == "red":
                _check((self.drop_from_front == "frame") == self.policy.red_frames, "PortConfig", "drop_from_front",
                       self.drop_from_front, f"{'frame' if self.policy.red_frames else 'cell'} with RED at the "
                       f"{'frame' if self.policy.red_frames else 'cell'} level (red_frames={self.policy.red_frames})")
            _check(not self.randomized_tail, "PortConfig", "drop_from_front", self.drop_from_front,
                   "'none' with randomized_tail (a full buffer drops either at the front or at the tail)")
            _check(self.buffer_cells is not None, "PortConfig", "drop_from_front", self.drop_from_front,
                   "'none' with an infinite buffer (nothing is ever dropped)")
        if self.fan_in is not None:
            _positive("PortConfig", "fan_in", self.fan_in, integer=True)
            _check(self.randomized_tail, "PortConfig", "fan_in", self.fan_in,
                   "None unless randomized_tail=True (F is the randomized tail drop's choice)")
        if self.randomized_tail:
            _check(self.policy.kind in ("tail", "ppd"), "PortConfig", "randomized_tail", self.randomized_tail,
                   f"False with the {self.policy.kind!r} policy (lakshman 3 randomizes tail drop: plain or PPD)")
            _check(self.buffer_cells is not None, "PortConfig", "randomized_tail", self.randomized_tail,
                   "False with an infinite buffer (nothing is ever dropped)")
        if self.buffer_cells is not None:
            _positive("PortConfig", "buffer_cells", self.buffer_cells, integer=True, at_most=MAX_BUFFER_CELLS)
        self.policy.check_buffer(self.buffer_cells)


@dataclass(frozen=True)
class Link:
    """A full-duplex link between nodes ``a`` and ``b``: each direction is an output port.

    ``cdv_s``: cell delay variation. Each cell (in both directions) gets an extra delay
    drawn uniformly in ``[0, cdv_s]`` from the run's seeded stream, never overtaking the
    cell before it on the link (FIFO is kept), so that the phases of cell streams that
    meet at a switch drift. Off (0) by default: goyal1997's slides say "delay variation =
    0". A port fed by a link with cell delay variation is always simulated, never folded.

    Parameters
    ----------
    a, b : str
        The nodes.
    rate_bps : float
        The line rate (bit/s; default OC-3, :data:`OC3_BPS`).
    delay_s : float
        The propagation delay (s; default 5 us, goyal1998's LAN).
    cdv_s : float
        The cell delay variation (s; default 0).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    a: str
    b: str
    rate_bps: float = OC3_BPS
    delay_s: float = 5e-6
    cdv_s: float = 0.0

    def __post_init__(self):
        _check(isinstance(self.a, str) and self.a != "", "Link", "a", self.a, "a node name")
        _check(isinstance(self.b, str) and self.b not in ("", self.a), "Link", "b", self.b,
               "a node name other than a")
        _positive("Link", "rate_bps", self.rate_bps, at_most=1e13)
        _check(self.rate_bps >= 1e3, "Link", "rate_bps", self.rate_bps, "at least 1000 bit/s")
        _non_negative("Link", "delay_s", self.delay_s, at_most=1000.0)
        _non_negative("Link", "cdv_s", self.cdv_s, at_most=1.0)


DELINEATIONS = ("eom", "packet")


@dataclass(frozen=True)
class Aal5Config:
    """Bytes added to each TCP segment before segmentation (goyal1998 3.2: 20 TCP + 20 IP
    + 8 LLC + 8 AAL5 trailer), and how the receiving end delimits frames.

    ``delineation="eom"`` (AAL5): a frame ends at an EOM cell, so a packet that lost its EOM
    cell runs into the next one and both are discarded. ``"packet"``: the receiving end knows
    each cell's packet, as a packet-level simulator's reassembly does, so only the packet that
    lost cells is discarded (lakshman 3: "Packets with lost cells which cannot be successfully
    reassembled at the ADSU are dropped at the ADSU"; its partial frame drops discard a frame's
    EOM cell too, 2.1).

    Parameters
    ----------
    tcpip_header_bytes : int
        TCP and IP headers (default 40).
    llc_bytes : int
        The LLC/SNAP header (default 8).
    trailer_bytes : int
        The AAL5 trailer (default 8).
    delineation : str
        ``"eom"`` or ``"packet"`` (:data:`DELINEATIONS`; default ``"eom"``).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    tcpip_header_bytes: int = 40
    llc_bytes: int = 8
    trailer_bytes: int = 8
    delineation: str = "eom"

    def __post_init__(self):
        for name in ("tcpip_header_bytes", "llc_bytes", "trailer_bytes"):
            value = getattr(self, name)
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            _check(ok, "Aal5Config", name, value, "an integer >= 0 (bytes)")
        _check(self.delineation in DELINEATIONS, "Aal5Config", "delineation", self.delineation,
               f"one of {DELINEATIONS}")

    @property
    def overhead_bytes(self) -> int:
        """The bytes AAL5 adds to a TCP segment: the TCP/IP headers, the LLC/SNAP header and the trailer."""
        return self.tcpip_header_bytes + self.llc_bytes + self.trailer_bytes


BSD44_PROFILE = dict(increase="bsd", ssthresh_rule="bsd", recovery_exit_opens=True, delayed_ack=True,
                     delayed_ack_max_s=0.2, granularity_s=0.5, min_rto_ticks=2, initial_rto_s=3.0,
                     max_rto_s=64.0, timestamps=False, retransmit_timers="per_connection")
"""4.4BSD-Lite's values of the :class:`TcpConfig` fields a paper may leave unsaid (:meth:`TcpConfig.bsd44`)."""


@dataclass(frozen=True)
class TcpConfig:
    """One TCP connection's parameters.

    ``rcv_wnd`` is the receiver's window in bytes; window scaling is used when it exceeds
    65535 (goyal1998: 600000 bytes for WANs). ``initial_ssthresh=None`` starts slow start
    with ssthresh equal to the receiver window (goyal1998 section 2: "typically initialized
    to 64 kbytes", the LAN window). The timer is 4.4BSD's: ``granularity_s`` per tick,
    ``min_rto_ticks`` and ``max_rto_s`` bound the RTO, ``initial_rto_s`` applies before the
    first RTT sample. ``timeout_guard`` (default: on for New Reno and SACK, off for Reno)
    refuses a fast retransmit for duplicate ACKs of data sent before the last timeout
    (Hoe's New Reno, RFC 2582 "send_high"); classic Reno has no such guard. ``ack_delay_s``:
    the receiver sends each ACK this long after the data arrived (lakshman 3: a fixed delay
    before every ACK, "not the same as delayed ACK"); 0 by default. ``timestamps``: an RTT
    sample from every ACK of new data, from the send time of the segment it answers, none from
    an ACK that answers a retransmission (lakshman 3: "We also assumed the timestamp option ...
    Round trip times were estimated ignoring ambiguous ACKs as in [8]"; RFC 1323, Karn's rule);
    off, one segment per window is timed, as in 4.4BSD. ``ssthresh_rule`` (one of
    :data:`SSTHRESH_RULES`) sets ssthresh after a loss; ``recovery_exit_opens`` lets the ACK
    that ends fast recovery open the window after deflating it, as 4.4BSD's ``tcp_input`` does.
    ``sack_pipe_start`` (one of :data:`SACK_PIPE_STARTS`) is SACK's PIPE at the third duplicate ACK:
    goyal1998 gives two (5.4.1 and 5.4.2); the default is 5.4.2's, which its recovery bound assumes.
    ``tick_phase_s``: the host's timer ticks fall at ``tick_phase_s + k * granularity_s`` (0: every
    host's clock ticks together, as in a simulator whose timers share one clock).
    ``retransmit_timers`` (one of :data:`RETRANSMIT_TIMERS`): ``"per_connection"``, one timer per
    connection restarted by each ACK of new data (4.4BSD); ``"per_segment"``, every segment has its own
    timer started at its (re)transmission, and each expiry is a timeout of its own (cheon section 2:
    "In the TCP implementation of OPNET version 2.4, each packet being transmitted from the source node
    has its own RTO timer so that once a timeout occurs, many subsequent timeouts generally follow";
    :func:`atmtcp.kernel.tcp.segment_timeout`).

    The defaults are goyal1998's explicit TCP (section 2). :meth:`bsd44` is 4.4BSD-Lite's, the
    TCP the project uses wherever a paper only names "Reno" or "Jacobson's" (docs/modelling.md, "What a
    paper leaves unsaid").

    Parameters
    ----------
    flavor : str
        One of :data:`FLAVORS` (default ``"reno"``).
    mss : int
        The segment's payload (bytes; default 512).
    rcv_wnd : int
        The receiver's window (bytes; default 65535).
    initial_ssthresh : int, optional
        Slow start's first threshold (bytes); None: ``rcv_wnd``.
    granularity_s : float
        One tick of the retransmission timer (s; default 0.1).
    min_rto_ticks : int
        The RTO's floor (ticks; default 2).
    max_rto_s : float
        The RTO's ceiling (s; default 64).
    initial_rto_s : float
        The RTO before the first RTT sample (s; default 3).
    increase : str
        Congestion avoidance's rule, one of :data:`INCREASE_RULES` (default ``"float"``).
    increase_every_n : int
        N of ``"integer_every_n"`` (ACKs; default 2).
    delayed_ack : bool
        Whether the receiver delays its ACKs (every second segment or the timer; default False).
    delayed_ack_max_s : float
        The delayed-ACK timer (s; default 0.2).
    timeout_guard : bool, optional
        The send_high guard; None: by flavour (:attr:`uses_timeout_guard`).
    ack_delay_s : float
        A fixed delay before every ACK (s; default 0).
    timestamps : bool
        An RTT sample from every ACK of new data (default False).
    ssthresh_rule : str
        One of :data:`SSTHRESH_RULES` (default ``"half_cwnd"``).
    recovery_exit_opens : bool
        Whether the ACK ending fast recovery also opens the window (default False).
    sack_pipe_start : str
        One of :data:`SACK_PIPE_STARTS` (default ``"cwnd-3"``).
    tick_phase_s : float
        The phase of the host's timer ticks (s, below ``granularity_s``; default 0).
    retransmit_timers : str
        One of :data:`RETRANSMIT_TIMERS` (default ``"per_connection"``; ``"per_segment"`` is OPNET 2.4's TCP,
        cheon 2).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    flavor: str = "reno"
    mss: int = 512
    rcv_wnd: int = 65535
    initial_ssthresh: int | None = None
    granularity_s: float = 0.1
    min_rto_ticks: int = 2
    max_rto_s: float = 64.0
    initial_rto_s: float = 3.0
    increase: str = "float"
    increase_every_n: int = 2
    delayed_ack: bool = False
    delayed_ack_max_s: float = 0.2
    timeout_guard: bool | None = None
    ack_delay_s: float = 0.0
    timestamps: bool = False
    ssthresh_rule: str = "half_cwnd"
    recovery_exit_opens: bool = False
    sack_pipe_start: str = "cwnd-3"
    tick_phase_s: float = 0.0
    retransmit_timers: str = "per_connection"

    @classmethod
    def bsd44(cls, flavor: str = "reno", **stated) -> "TcpConfig":
        """4.4BSD-Lite's TCP (``netinet/tcp_input.c``, ``tcp_timer.c``, ``tcp_timer.h``), with
        the settings a paper states passed as ``stated`` (they win):

        - congestion avoidance ``cwnd += mss*mss/cwnd + mss/8`` per ACK, integer bytes,
          slow start while ``cwnd <= ssthresh`` (``increase="bsd"``);
        - ssthresh ``max(2, min(wnd, cwnd)/2/mss)`` segments after a loss (``ssthresh_rule="bsd"``);
        - the ACK ending fast recovery sets ``cwnd = ssthresh`` and then opens it as any ACK of
          new data, by one segment since ``cwnd > ssthresh`` is false (``recovery_exit_opens``);
        - delayed ACKs: every second in-order segment, otherwise the 200 ms fast timer;
        - the 500 ms slow timer, a minimum RTO of two ticks (``TCPTV_MIN``), 3 s before the first
          RTT sample (``TCPTV_SRTTDFLT``), at most 64 s (``TCPTV_REXMTMAX``);
        - one RTT sample per window, no timestamps; Reno's fast retransmit has no timeout guard;
        - one retransmission timer per connection (``tcp_timer.c``'s ``TCPT_REXMT``).

        Parameters
        ----------
        flavor : str
            One of :data:`FLAVORS`.
        **stated
            :class:`TcpConfig` fields the paper states; they replace 4.4BSD's (:data:`BSD44_PROFILE`).

        Returns
        -------
        TcpConfig

        Raises
        ------
        ModelError
            If a field is out of range (as :class:`TcpConfig` checks it).
        """
        return cls(flavor, **{**BSD44_PROFILE, **stated})

    def __post_init__(self):
        _check(self.flavor in FLAVORS, "TcpConfig", "flavor", self.flavor, f"one of {FLAVORS}")
        _positive("TcpConfig", "mss", self.mss, integer=True)
        _positive("TcpConfig", "rcv_wnd", self.rcv_wnd, integer=True)
        _check(self.rcv_wnd >= self.mss, "TcpConfig", "rcv_wnd", self.rcv_wnd,
               f">= one segment (mss = {self.mss} bytes)")
        _check(self.rcv_wnd <= 65535 << 14, "TcpConfig", "rcv_wnd", self.rcv_wnd,
               "<= 65535 << 14 bytes (RFC 1323 window scaling)")
        if self.initial_ssthresh is not None:
            _positive("TcpConfig", "initial_ssthresh", self.initial_ssthresh, integer=True)
        _positive("TcpConfig", "granularity_s", self.granularity_s, at_most=10.0)
        _check(self.granularity_s >= 1e-6, "TcpConfig", "granularity_s", self.granularity_s,
               "at least 1e-6 s (the kernel's clock counts nanoseconds)")
        _positive("TcpConfig", "min_rto_ticks", self.min_rto_ticks, integer=True, at_most=1_000_000)
        _positive("TcpConfig", "max_rto_s", self.max_rto_s, at_most=MAX_TIME_S)
        _positive("TcpConfig", "initial_rto_s", self.initial_rto_s, at_most=MAX_TIME_S)
        _check(self.increase in INCREASE_RULES, "TcpConfig", "increase", self.increase,
               f"one of {INCREASE_RULES}")
        _positive("TcpConfig", "increase_every_n", self.increase_every_n, integer=True)
        _positive("TcpConfig", "delayed_ack_max_s", self.delayed_ack_max_s, at_most=MAX_TIME_S)
        _boolean("TcpConfig", "delayed_ack", self.delayed_ack)
        _boolean("TcpConfig", "timeout_guard", self.timeout_guard, allow_none=True)
        _non_negative("TcpConfig", "ack_delay_s", self.ack_delay_s, at_most=MAX_TIME_S)
        _boolean("TcpConfig", "timestamps", self.timestamps)
        _check(self.ssthresh_rule in SSTHRESH_RULES, "TcpConfig", "ssthresh_rule", self.ssthresh_rule,
               f"one of {SSTHRESH_RULES}")
        _boolean("TcpConfig", "recovery_exit_opens", self.recovery_exit_opens)
        _non_negative("TcpConfig", "tick_phase_s", self.tick_phase_s)
        _check(self.tick_phase_s < self.granularity_s, "TcpConfig", "tick_phase_s", self.tick_phase_s,
               f"below one tick (granularity_s = {self.granularity_s:g} s)")
        _check(self.sack_pipe_start in SACK_PIPE_STARTS, "TcpConfig", "sack_pipe_start", self.sack_pipe_start,
               f"one of {SACK_PIPE_STARTS}")
        _check(self.retransmit_timers in RETRANSMIT_TIMERS, "TcpConfig", "retransmit_timers",
               self.retransmit_timers, f"one of {RETRANSMIT_TIMERS}")

    @property
    def loss_detection(self) -> str:
        """How this flavour learns of a loss (one of :data:`LOSS_DETECTIONS`)."""
        return FLAVOR_AXES[self.flavor][0]

    @property
    def recovery(self) -> str:
        """What this flavour does from the third duplicate ACK on (one of :data:`RECOVERIES`)."""
        return FLAVOR_AXES[self.flavor][1]

    @property
    def uses_timeout_guard(self) -> bool:
        """Whether the timeout guard (Hoe's send_high) is on: ``timeout_guard``, or by default for New Reno and SACK."""
        if self.timeout_guard is None:
            return self.flavor in ("newreno", "sack")
        return self.timeout_guard

    @property
    def window_scale(self) -> int:
        """RFC 1323 shift: the smallest with ``65535 << shift >= rcv_wnd``."""
        shift = 0
        while (65535 << shift) < self.rcv_wnd:
            shift += 1
        return shift


@dataclass(frozen=True)
class OnOff:
    """An ON/OFF application (ewa 4.6: "ON-OFF sources where the ON and OFF periods are
    exponentially distributed, each with an average of 200 milliseconds"): it has data throughout
    an ON period and none in an OFF period, on a TCP connection that stays open. It starts with an
    ON period at the connection's open; the periods are drawn from the run's seeded stream
    (:mod:`atmtcp.kernel.applications`).

    Parameters
    ----------
    mean_on_s, mean_off_s : float
        The mean ON and OFF periods (s; default 0.2 each).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    mean_on_s: float = 0.2
    mean_off_s: float = 0.2

    def __post_init__(self):
        for name in ("mean_on_s", "mean_off_s"):
            _positive("OnOff", name, getattr(self, name), at_most=MAX_TIME_S)
            _check(getattr(self, name) >= 1e-6, "OnOff", name, getattr(self, name), "at least 1e-6 s")


@dataclass(frozen=True)
class Connection:
    """A TCP source at host ``src`` sending to host ``dst``: persistent (infinite) unless
    ``on_off`` gives it an ON/OFF application.

    ``lost_segments``: segment numbers (``seq // mss``, from 0) whose first transmission
    is lost before it enters the network: scripted losses for tests and for the
    single-connection figures (goyal1998 Figs. 5-7). Retransmissions always go through.

    ``stop_s``: the application closes at this time (ewa 2: "At time t = 10 secs we closed five
    of the ten active connections"): it gives TCP no new data, while the data already sent is
    still delivered and retransmitted until acknowledged (:mod:`atmtcp.kernel.applications`).
    ``None``: it never closes.

    ``on_off``: an :class:`OnOff` application instead of a persistent one (ewa 4.6).

    Parameters
    ----------
    src, dst : str
        The sending and the receiving host.
    tcp : TcpConfig
        The connection's TCP (default goyal1998's, :class:`TcpConfig`).
    start_s : float
        When the sender starts (s; default 0).
    lost_segments : tuple of int
        Scripted losses (default none).
    stop_s : float, optional
        When the application closes (s); None: never.
    on_off : OnOff, optional
        An ON/OFF application; None: persistent.

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    src: str
    dst: str
    tcp: TcpConfig = field(default_factory=TcpConfig)
    start_s: float = 0.0
    lost_segments: tuple[int, ...] = ()
    stop_s: float | None = None
    on_off: OnOff | None = None

    def __post_init__(self):
        _check(isinstance(self.src, str) and self.src != "", "Connection", "src", self.src, "a host name")
        _check(isinstance(self.dst, str) and self.dst not in ("", self.src), "Connection", "dst",
               self.dst, "a host name other than src")
        _check(isinstance(self.tcp, TcpConfig), "Connection", "tcp", self.tcp, "a TcpConfig (e.g. TcpConfig('reno'))")
        _non_negative("Connection", "start_s", self.start_s)
        _check(isinstance(self.lost_segments, tuple), "Connection", "lost_segments", self.lost_segments,
               "a tuple of segment numbers >= 0")
        for seg in self.lost_segments:
            _check(isinstance(seg, int) and not isinstance(seg, bool) and seg >= 0, "Connection",
                   "lost_segments", self.lost_segments, "a tuple of segment numbers >= 0")
        if self.stop_s is not None:
            _non_negative("Connection", "stop_s", self.stop_s)
            _check(self.stop_s > self.start_s, "Connection", "stop_s", self.stop_s,
                   f"after the open time start_s = {self.start_s:g} s (or None: never closes)")
        _check(self.on_off is None or isinstance(self.on_off, OnOff), "Connection", "on_off", self.on_off,
               "None (persistent) or an OnOff (e.g. OnOff(0.2, 0.2))")


@dataclass(frozen=True)
class Network:
    """Hosts, switches and links. Switch output ports take ``switch_port`` unless
    ``ports`` names them (``"node->neighbor"``); host NICs have infinite buffers.

    ``sonet``: ATM over SONET. Switch output ports send cells at the STS-3c payload rate,
    26/27 of the link rate (149.76 of 155.52 Mbit/s), while hosts send at the full link
    rate (goyal1998 3.2: "For ATM over SONET, this number is further reduced to 120.5
    Mbps"). Efficiency is then reported against the maximum TCP goodput at that payload
    rate (120.6 Mbit/s for 512-byte segments). Off by default.

    ``ip_service_pps``: each host's IP layer hands at most this many packets per second to
    AAL5, from an infinite IP queue; a packet's cells then leave at the link rate (cheon 2:
    "10,500 packets/sec for a packet size of 500 bytes and ... 4,000 packets/sec for packet
    size of 1,500 bytes"). ``None``: no limit.

    Parameters
    ----------
    hosts, switches : tuple of str
        The node names.
    links : tuple of Link
        The links.
    switch_port : PortConfig
        Every switch output port not named in ``ports`` (default: infinite, tail drop).
    ports : tuple of (str, PortConfig)
        Ports of their own, by name ``"node->neighbor"``.
    sonet : bool
        ATM over SONET (default False).
    ip_service_pps : float, optional
        The hosts' IP service rate (packets/s); None: no limit.

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    hosts: tuple[str, ...]
    switches: tuple[str, ...]
    links: tuple[Link, ...]
    switch_port: PortConfig = field(default_factory=PortConfig)
    ports: tuple[tuple[str, PortConfig], ...] = ()
    sonet: bool = False
    ip_service_pps: float | None = None

    def __post_init__(self):
        _boolean("Network", "sonet", self.sonet)
        if self.ip_service_pps is not None:
            _positive("Network", "ip_service_pps", self.ip_service_pps, at_most=1e9)
        names = list(self.hosts) + list(self.switches)
        _check(len(self.hosts) >= 2, "Network", "hosts", self.hosts, "at least two host names")
        _check(len(set(names)) == len(names), "Network", "hosts", names, "unique node names")
        _check(len(self.links) >= 1, "Network", "links", self.links, "at least one link")
        known = set(names)
        for link in self.links:  # the messages list every node: build them only on failure (10**4 hosts)
            for end in ("a", "b"):
                if getattr(link, end) not in known:
                    raise ModelError("Link", end, getattr(link, end), f"a node of the network {sorted(known)}")
        switches = set(self.switches)
        port_names = {f"{a}->{b}" for l in self.links for a, b in ((l.a, l.b), (l.b, l.a)) if a in switches}
        for name, _ in self.ports:
            if name not in port_names:
                raise ModelError("Network", "ports", name, f"a switch output port, one of {sorted(port_names)} "
                                 "(a host's NIC always has an infinite FIFO buffer)")


@dataclass(frozen=True)
class TraceConfig:
    """What to record besides the counters.

    ``connections``: indices whose cwnd, ssthresh, sent sequence numbers, received ACKs,
    timeouts and fast retransmits are recorded between ``start_s`` and ``stop_s``.
    ``ports``: port names (``"node->neighbor"``) whose queue length and departures are
    sampled every ``sample_interval_s`` and whose drops are logged.

    Parameters
    ----------
    connections : tuple of int
        The traced connections (indices into :attr:`Run.connections`).
    ports : tuple of str
        The sampled ports.
    start_s, stop_s : float
        The window of the connections' traces (s; default the whole run).
    sample_interval_s : float
        The ports' sampling interval (s; default 1 ms).
    max_records : int
        The trace's capacity in records (default 1,000,000).

    Raises
    ------
    ModelError
        If a field is out of its range, naming it.
    """

    connections: tuple[int, ...] = ()
    ports: tuple[str, ...] = ()
    start_s: float = 0.0
    stop_s: float = math.inf
    sample_interval_s: float = 1e-3
    max_records: int = 1_000_000

    def __post_init__(self):
        _non_negative("TraceConfig", "start_s", self.start_s)
        _check(self.stop_s >= self.start_s, "TraceConfig", "stop_s", self.stop_s, ">= start_s")
        _positive("TraceConfig", "sample_interval_s", self.sample_interval_s, at_most=MAX_TIME_S)
        _check(self.sample_interval_s >= 1e-9, "TraceConfig", "sample_interval_s", self.sample_interval_s,
               "at least 1e-9 s")
        _positive("TraceConfig", "max_records", self.max_records, integer=True, at_most=MAX_TRACE_RECORDS)


@dataclass(frozen=True)
class Run:
    """A complete simulation: network, connections, duration, seed, framing and traces.

    ``network`` is a :class:`Network` of hosts and cell switches, or an
    :class:`atmtcp.internetwork.Internetwork` of IP networks joined by ATM (whole packets; its
    ``trace.ports`` name router ports whose queues are sampled, and every connection is sampled with
    them).

    ``warmup_s``: the distinct segments each receiver gets are counted from this time on
    (``segments_received``; cheon 4.2.3: "we collected result after 0.5 sec, in order to
    disregard the initial transient period"). The other counters cover the whole run.

    Parameters
    ----------
    network : Network or atmtcp.internetwork.Internetwork
        The network.
    connections : tuple of Connection
        The TCP connections.
    duration_s : float
        The simulated time (s).
    seed : int
        The run's seeded random stream (default 0).
    aal5 : Aal5Config
        The framing (default goyal1998's).
    trace : TraceConfig
        What to trace (default nothing).
    warmup_s : float
        When ``segments_received`` starts counting (s; default 0).

    Raises
    ------
    ModelError
        If a field is out of its range or the connections do not fit the network, naming the field.
    """

    network: Network  # or atmtcp.internetwork.Internetwork
    connections: tuple[Connection, ...]
    duration_s: float
    seed: int = 0
    aal5: Aal5Config = field(default_factory=Aal5Config)
    trace: TraceConfig = field(default_factory=TraceConfig)
    warmup_s: float = 0.0

    def __post_init__(self):
        _positive("Run", "duration_s", self.duration_s, at_most=MAX_TIME_S)
        _non_negative("Run", "warmup_s", self.warmup_s)
        _check(self.warmup_s < self.duration_s, "Run", "warmup_s", self.warmup_s,
               f"below the duration {self.duration_s:g} s")
        _check(isinstance(self.seed, int) and not isinstance(self.seed, bool) and 0 <= self.seed < 2**63,
               "Run", "seed", self.seed, "an integer in [0, 2**63)")
        _check(len(self.connections) >= 1, "Run", "connections", self.connections, "at least one connection")
        hosts = set(self.network.hosts)
        for c in self.connections:
            for name in ("src", "dst"):
                if getattr(c, name) not in hosts:  # (the message is built only on failure: runs may have 1000s)
                    raise ModelError("Connection", name, getattr(c, name), f"a host of the network {sorted(hosts)}")
        if self.trace.ports:
            samples = self.duration_s / self.trace.sample_interval_s
            _check(samples <= 1e7, "TraceConfig", "sample_interval_s", self.trace.sample_interval_s,
                   f">= duration / 1e7 = {self.duration_s / 1e7:g} s (at most 10 million queue samples)")
        for i in self.trace.connections:
            _check(isinstance(i, int) and 0 <= i < len(self.connections), "TraceConfig", "connections",
                   i, f"a connection index in 0..{len(self.connections) - 1}")
