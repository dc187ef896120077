"""Switch drop policies: one function per policy, of one signature, and the papers' rules they call.

Each policy ``<name>`` of :data:`atmtcp.kernel.layout.POLICY_NAMES` is decided by
``decide_<name>(S, p, pv, x, bom, eom, t)``: the cell arriving at port ``p`` at ``t`` (ns), of the
(port, VC) slot ``pv``, finds ``x`` cells in the buffer; ``bom`` and ``eom`` say whether it is the
first and the last cell of its packet. It returns ``ACCEPT`` or the drop's reason, plus ``CAPTURED``
when the refused cell put its VC on the drop-list (:func:`atmtcp.kernel.cells.drop_cell` logs it),
and updates the VC's discard state (``pv_state[pv]``) and whatever state the policy keeps at the
port. It reads its parameters from the port's columns, as the policy's record in
:mod:`atmtcp.model` writes them (``kernel_columns``). :func:`decide` calls the port's one, by its
code, for :func:`atmtcp.kernel.cells.port_decision`. These functions are on the cell path: they and
everything they call are inlined (``@jit_inline``).

The rules themselves are pure functions of numbers, written from the papers and tested against them:

- :func:`cell_decision` (cheon 3.1 and 3.2's pseudocode: the per-VC drop-list of PPD and EPD),
  shared by tail drop, PPD, EPD, Selective Drop and FBA, with the packet rules of
  :func:`packet_admission` (goyal1998 4.2's formulas, cheon 3.2's threshold);
- :func:`espd_decision` (cheon 3.3's pseudocode);
- :func:`red_decision` and :func:`red_probability` (lakshman 2.2).

Notation (goyal1998 section 4.2): ``X`` cells in the buffer, ``K`` buffer capacity,
``R`` threshold (cells), ``Z`` scale factor, ``Y`` cells of the arriving cell's VC in the
buffer, ``Na`` VCs with at least one cell in the buffer. All are read *before* the
arriving cell is added.
"""
import math

from .faults import keep_fault_args
from .jit import jit_inline
from .layout import (
    ACCEPT, CAPTURED, DROP_OVERFLOW, DROP_PARTIAL, DROP_PERVC, DROP_THRESHOLD, EPD, ESPD, ESPD_CAPTURE,
    ESPD_RELEASE, ESPD_STAY, FBA, P_ACTIVE_VCS, P_CAPACITY, P_CAPTURE_EOM, P_DROP_TIMER_AT, P_DROP_TIMER_NS,
    P_DROPLIST_EPOCH, P_DROPLIST_LEN, P_DROPLIST_MAX, P_FRONT, P_KEEP_EOM, P_POLICY, P_RED_FRAME, P_ROUTED_VCS,
    P_THRESHOLD, P_THRESHOLD2, PF_RED_LOG_ONE, PF_RED_SLOPE, PF_Z, PPD, PV_DISCARD_ALL, PV_DISCARD_KEEP_EOM,
    PV_LISTED, PV_NORMAL, RED, SELECTIVE_DROP, TAIL,
)
from .rng import random_unit
from .state import ftab, itab, ivec, T_PORT, T_PORTF, T_PV_COUNT, T_PV_STATE


# --- the rules: goyal1998 4.2, cheon 3.1-3.3, lakshman 2.2 ------------------------------------------
@jit_inline
def epd_admits(X, K, R, Z, Y, Na):
    """EPD (cheon 3.2 pseudocode): a new packet enters only while ``queue_length < Threshold``."""
    return X < R


@jit_inline
def selective_drop_admits(X, K, R, Z, Y, Na):
    """Selective Drop (goyal1998 4.2): drop if ``X > R`` and load ratio ``Y*Na/X > Z``."""
    return X <= R or Y * Na <= Z * X


@jit_inline
def fba_admits(X, K, R, Z, Y, Na):
    """FBA (goyal1998 4.2): drop if ``X > R`` and ``Y*Na/X > Z*(K-R)/(X-R)``.

    Both sides are multiplied by ``X*(X-R) > 0`` so that no division is needed.
    """
    return X <= R or Y * Na * (X - R) <= Z * (K - R) * X


@jit_inline
def packet_admission(policy, X, K, R, Z, Y, Na):
    """Decision on a packet's first cell: ``ACCEPT`` or the drop reason. Tail drop and PPD have
    no packet rule: they admit every packet while there is room."""
    if policy == EPD:
        return ACCEPT if epd_admits(X, K, R, Z, Y, Na) else DROP_THRESHOLD
    if policy == SELECTIVE_DROP:
        return ACCEPT if selective_drop_admits(X, K, R, Z, Y, Na) else DROP_PERVC
    if policy == FBA:
        return ACCEPT if fba_admits(X, K, R, Z, Y, Na) else DROP_PERVC
    return ACCEPT


@jit_inline
def cell_decision(policy, keep_eom, capture_eom, state, X, K, R, Z, Y, Na, bom, eom):
    """Decide one arriving cell. Returns ``(decision, new_state)``.

    ``decision`` is ``ACCEPT`` or a drop reason; ``state`` is the VC's discard state at
    this port (``PV_*``: the VC is on cheon's "drop-list" when it is not ``PV_NORMAL``).

    - TAIL (random cell discard): a cell is dropped only when the buffer is full.
    - PPD (cheon 3.1 pseudocode): a full buffer puts the VC on the drop-list; every later
      cell of that packet is discarded, the EOM cell included, and the EOM takes the VC
      off the list.
    - EPD, Selective Drop, FBA (cheon 3.2 pseudocode, the packet rule from
      :func:`packet_admission`): a rejected first cell or a full buffer puts the VC on the
      drop-list; later cells are discarded except the EOM, which enters if there is room
      ("EOM cells enter the buffer whenever the space is available") when ``keep_eom``.

    A dropped EOM cell (the last cell of its packet, or a one-cell packet rejected on
    arrival) ends its packet. With ``capture_eom`` off it leaves the VC off the list: the
    packet is over ("discards all the subsequent cells of the packet"). With it on, the
    VC is captured as cheon's pseudocode is written ("if the buffer is full: discard the
    cell, capture the VPI/VCI into drop-list" whatever the cell), so the VC's *next*
    packet is discarded up to its EOM.
    """
    if state == PV_DISCARD_ALL:
        return DROP_PARTIAL, (PV_NORMAL if eom else PV_DISCARD_ALL)
    if state == PV_DISCARD_KEEP_EOM:
        if not eom:
            return DROP_PARTIAL, PV_DISCARD_KEEP_EOM
        if X < K:
            return ACCEPT, PV_NORMAL
        return DROP_OVERFLOW, PV_NORMAL
    discard_state = PV_DISCARD_KEEP_EOM if keep_eom else PV_DISCARD_ALL
    packet_over = eom and not capture_eom
    if bom:
        reason = packet_admission(policy, X, K, R, Z, Y, Na)
        if reason != ACCEPT:
            return reason, (PV_NORMAL if packet_over else discard_state)
    if X >= K:
        if policy == TAIL or packet_over:
            return DROP_OVERFLOW, PV_NORMAL
        if policy == PPD:
            return DROP_OVERFLOW, PV_DISCARD_ALL
        return DROP_OVERFLOW, discard_state
    return ACCEPT, PV_NORMAL


@jit_inline
def espd_decision(listed, X, K, R1, R2, list_full, bom, eom):
    """Early Selective Packet Discard, cheon 3.3's pseudocode line by line, for one cell.

    ``listed``: the cell's VC is on the drop-list; ``X``: queue length, ``K``: buffer
    size, ``R1``/``R2``: buffer thresholds 1 and 2 (cells); ``list_full``: the drop-list
    holds drop-list-threshold VCs. Returns ``(decision, action)``: ``ACCEPT`` or a drop
    reason, and what happens to the VC on the list (``ESPD_STAY``, ``ESPD_CAPTURE``,
    ``ESPD_RELEASE``). The list and the drop timer are :func:`decide_espd`'s.

    - A listed VC loses every cell but its EOM ("All the subsequent cells except EOM cell
      are discarded, even though we have available buffer"); the EOM enters if there is
      room, and releases the VC when ``X < R2``.
    - An unlisted VC's cell enters while ``X <= R1``. Above R1 a BOM cell is discarded and
      its VC captured while the list has room ("first-come-first-catch"); whatever the
      list, a cell that finds the buffer full is discarded and its VC captured.
    """
    if listed:
        if not eom:
            return DROP_PARTIAL, ESPD_STAY
        decision = ACCEPT if X < K else DROP_OVERFLOW
        return decision, (ESPD_RELEASE if X < R2 else ESPD_STAY)
    if X <= R1:
        return ACCEPT, ESPD_STAY
    if X >= K:
        return DROP_OVERFLOW, ESPD_CAPTURE
    if bom and not list_full:
        return DROP_THRESHOLD, ESPD_CAPTURE
    return ACCEPT, ESPD_STAY


@jit_inline
def red_probability(X, K, log_one, slope):
    """lakshman 2.2: "we associate a drop probability with each buffer occupancy level", an
    exponential function of the occupancy from RED_one (one cell) to RED_full (the buffer full):
    ``exp(log_one + (X - 1) * slope)``; an empty buffer drops nothing (our choice)."""
    if X <= 0:
        return 0.0
    return math.exp(log_one + (min(X, K) - 1) * slope)


@jit_inline
def red_decision(state, X, K, u, log_one, slope, frames, at_front, bom, eom):
    """lakshman 2.2's RED for one cell; ``u`` is a uniform draw, the drop probability at
    occupancy ``X`` is :func:`red_probability` of ``log_one`` and ``slope``. Returns
    ``(decision, new_state)`` as :func:`cell_decision`.

    - Cell level (``frames`` false): "the test of whether to drop an item or not is performed
      upon every cell arrival", with no form of frame drop.
    - Frame level: "we perform the drop test only upon arrival of the first cell of a frame. If
      the test causes this cell to be dropped then all subsequent cells of the frame are also
      dropped. So RED applied at the frame level drops whole frames" (the EOM included).
    - A full buffer drops the arriving cell; at the frame level the rest of its frame too
      (partial frame drop: our choice, so that frame-level RED never sends a damaged frame's
      remaining cells).
    - ``at_front`` (lakshman 5, Fig. 13): the refusal is carried out on the cell at the front
      (:func:`atmtcp.kernel.held_ports.drop_front`), so the arriving frame stays whole.

    An early (random) drop is counted as ``DROP_THRESHOLD``.
    """
    if state == PV_DISCARD_ALL:
        return DROP_PARTIAL, (PV_NORMAL if eom else PV_DISCARD_ALL)
    rest = PV_DISCARD_ALL if frames and not eom and not at_front else PV_NORMAL
    if X >= K:
        return DROP_OVERFLOW, rest
    if (bom or not frames) and u < red_probability(X, K, log_one, slope):
        return DROP_THRESHOLD, rest
    return ACCEPT, PV_NORMAL


# --- the policies: decide_<name>(S, p, pv, x, bom, eom, t), one per name of POLICY_NAMES -------------
UNKNOWN_POLICY = "drop policy code not in atmtcp.kernel.layout.POLICY_NAMES (port, code):"
""":func:`decide`'s error for a port whose code has no branch (:mod:`atmtcp.kernel.faults`)."""


@jit_inline
def decide(S, p, pv, x, bom, eom, t):
    """The decision of port ``p``'s policy (``P_POLICY``) on the arriving cell: its ``decide_<name>``.
    A code that is no policy's stops the run with a ``ValueError`` naming the port and the code."""
    policy = itab(S, T_PORT)[p, P_POLICY]
    if policy == TAIL:
        return decide_tail(S, p, pv, x, bom, eom, t)
    if policy == PPD:
        return decide_ppd(S, p, pv, x, bom, eom, t)
    if policy == EPD:
        return decide_epd(S, p, pv, x, bom, eom, t)
    if policy == SELECTIVE_DROP:
        return decide_selective_drop(S, p, pv, x, bom, eom, t)
    if policy == FBA:
        return decide_fba(S, p, pv, x, bom, eom, t)
    if policy == ESPD:
        return decide_espd(S, p, pv, x, bom, eom, t)
    if policy == RED:
        return decide_red(S, p, pv, x, bom, eom, t)
    keep_fault_args(S, 2, p, policy, 0)
    raise ValueError(UNKNOWN_POLICY)


@jit_inline
def decide_tail(S, p, pv, x, bom, eom, t):
    """Tail drop (goyal1998 3; cheon's RCD): :func:`cell_decision` of ``TAIL``, which drops a cell
    only when the buffer is full; its VCs never leave ``PV_NORMAL``."""
    decision, _ = cell_decision(TAIL, 0, 0, PV_NORMAL, x, itab(S, T_PORT)[p, P_CAPACITY], 0, 0.0, 0, 0, bom, eom)
    return decision


@jit_inline
def decide_ppd(S, p, pv, x, bom, eom, t):
    """PPD (cheon 3.1): :func:`cell_decision` of ``PPD``; ``P_CAPTURE_EOM`` as :class:`atmtcp.model.PPD`."""
    port = itab(S, T_PORT)
    return drop_list_decision(S, pv, PPD, 0, port[p, P_CAPTURE_EOM], x, port[p, P_CAPACITY], 0, 0.0, 0, 0, bom, eom)


@jit_inline
def decide_epd(S, p, pv, x, bom, eom, t):
    """EPD (cheon 3.2, goyal1998 4.1): :func:`cell_decision` of ``EPD``, threshold ``P_THRESHOLD``."""
    port = itab(S, T_PORT)
    return drop_list_decision(S, pv, EPD, port[p, P_KEEP_EOM], port[p, P_CAPTURE_EOM], x, port[p, P_CAPACITY],
                              port[p, P_THRESHOLD], 0.0, 0, 0, bom, eom)


@jit_inline
def decide_selective_drop(S, p, pv, x, bom, eom, t):
    """Selective Drop (goyal1998 4.2): :func:`cell_decision` of ``SELECTIVE_DROP``."""
    return vc_share_decision(S, p, pv, x, bom, eom, SELECTIVE_DROP)


@jit_inline
def decide_fba(S, p, pv, x, bom, eom, t):
    """Fair Buffer Allocation (goyal1998 4.2): :func:`cell_decision` of ``FBA``."""
    return vc_share_decision(S, p, pv, x, bom, eom, FBA)


@jit_inline
def decide_espd(S, p, pv, x, bom, eom, t):
    """ESPD (cheon 3.3): the port's drop-list, its count and the drop timer around
    :func:`espd_decision`.

    "if the drop timer has expired, remove all the entries of drop-list" is checked as each
    cell arrives, before the decision, as the pseudocode's first line; the port's list
    epoch rises so that no VC reads as listed. The timer starts when a VC is captured into
    an empty list ("if the first VPI/VCI in drop-list, activate a drop timer") and stops
    when a VC is released by queue length ("deactivate the drop timer if it is active").
    """
    port = itab(S, T_PORT)
    pv_state = ivec(S, T_PV_STATE)
    if port[p, P_DROP_TIMER_AT] >= 0 and t >= port[p, P_DROP_TIMER_AT]:
        port[p, P_DROPLIST_EPOCH] += 1
        port[p, P_DROPLIST_LEN] = 0
        port[p, P_DROP_TIMER_AT] = -1
    listed_state = PV_LISTED + port[p, P_DROPLIST_EPOCH]
    n_listed = port[p, P_DROPLIST_LEN]
    decision, action = espd_decision(
        pv_state[pv] == listed_state, x, port[p, P_CAPACITY], port[p, P_THRESHOLD], port[p, P_THRESHOLD2],
        n_listed >= port[p, P_DROPLIST_MAX], bom, eom,
    )
    if action == ESPD_CAPTURE:
        if n_listed == 0:
            port[p, P_DROP_TIMER_AT] = t + port[p, P_DROP_TIMER_NS]
        port[p, P_DROPLIST_LEN] = n_listed + 1
        pv_state[pv] = listed_state
        decision += CAPTURED
    elif action == ESPD_RELEASE:
        port[p, P_DROPLIST_LEN] = n_listed - 1
        pv_state[pv] = PV_NORMAL
        port[p, P_DROP_TIMER_AT] = -1
    return decision


@jit_inline
def decide_red(S, p, pv, x, bom, eom, t):
    """lakshman 2.2's RED: :func:`red_decision` with a draw from the run's stream. The draw is
    taken at every arrival the test applies to, whatever the occupancy, so that the stream does
    not depend on the decision."""
    port = itab(S, T_PORT)
    portf = ftab(S, T_PORTF)
    pv_state = ivec(S, T_PV_STATE)
    frames = port[p, P_RED_FRAME] != 0
    u = random_unit(S) if bom or not frames else 2.0
    old = pv_state[pv]
    decision, state = red_decision(old, x, port[p, P_CAPACITY], u, portf[p, PF_RED_LOG_ONE], portf[p, PF_RED_SLOPE],
                                   frames, port[p, P_FRONT] != 0, bom, eom)
    return with_discard_state(S, pv, old, decision, state)


# --- what several policies share ----------------------------------------------------------------------
@jit_inline
def vc_share_decision(S, p, pv, x, bom, eom, policy):
    """Selective Drop's or FBA's decision (``policy``): R, Z, the VC's cells Y and the active VCs
    Na (those routed through the port with ``P_ROUTED_VCS``, else those with a cell buffered)."""
    port = itab(S, T_PORT)
    routed = port[p, P_ROUTED_VCS]
    na = port[p, P_ACTIVE_VCS] if routed == 0 else routed
    return drop_list_decision(S, pv, policy, port[p, P_KEEP_EOM], port[p, P_CAPTURE_EOM], x, port[p, P_CAPACITY],
                              port[p, P_THRESHOLD], ftab(S, T_PORTF)[p, PF_Z], ivec(S, T_PV_COUNT)[pv], na, bom, eom)


@jit_inline
def drop_list_decision(S, pv, policy, keep_eom, capture_eom, x, K, R, Z, Y, Na, bom, eom):
    """:func:`cell_decision` on the VC's discard state at the port, which it updates."""
    old = ivec(S, T_PV_STATE)[pv]
    decision, state = cell_decision(policy, keep_eom, capture_eom, old, x, K, R, Z, Y, Na, bom, eom)
    return with_discard_state(S, pv, old, decision, state)


@jit_inline
def with_discard_state(S, pv, old, decision, state):
    """Store the VC's new discard state; a refused cell that put the VC on the drop-list returns
    its reason plus ``CAPTURED``."""
    ivec(S, T_PV_STATE)[pv] = state
    if old == PV_NORMAL and state != PV_NORMAL:
        return decision + CAPTURED
    return decision
