"""Switch drop policies: one function per policy, one entry in :func:`packet_admission`.

A policy decides, for the first cell (BOM) of each arriving packet, whether the packet may
enter the buffer. What happens to the remaining cells of a rejected or damaged packet,
and to a cell that finds the buffer full, is the per-VC state machine of
:func:`cell_decision`, shared by all policies and written from the pseudocode of cheon
section 3 (PPD and EPD).

Notation (goyal1998 section 4.2): ``X`` cells in the buffer, ``K`` buffer capacity,
``R`` threshold (cells), ``Z`` scale factor, ``Y`` cells of the arriving cell's VC in the
buffer, ``Na`` VCs with at least one cell in the buffer. All are read *before* the
arriving cell is added.

Adding a policy that decides on a packet's first cell (RED at the frame level, ...): write
``<name>_admits`` below, give it a code in :mod:`atmtcp.kernel.layout`, and add its line to
:func:`packet_admission`. ESPD (cheon 3.3) decides every cell from a drop-list shared by the
port's VCs, so it has its own decision function, :func:`espd_decision`, called by
:func:`atmtcp.kernel.cells.espd_port_decision`, which keeps the list and the drop timer.
"""
import math

from .jit import jit
from .layout import (
    ACCEPT, DROP_OVERFLOW, DROP_PARTIAL, DROP_PERVC, DROP_THRESHOLD, EPD, ESPD_CAPTURE, ESPD_RELEASE,
    ESPD_STAY, FBA, PPD, PV_DISCARD_ALL, PV_DISCARD_KEEP_EOM, PV_NORMAL, SELECTIVE_DROP, TAIL,
)


@jit
def epd_admits(X, K, R, Z, Y, Na):
    """EPD (cheon 3.2 pseudocode): a new packet enters only while ``queue_length < Threshold``."""
    return X < R


@jit
def selective_drop_admits(X, K, R, Z, Y, Na):
    """Selective Drop (goyal1998 4.2): drop if ``X > R`` and load ratio ``Y*Na/X > Z``."""
    return X <= R or Y * Na <= Z * X


@jit
def fba_admits(X, K, R, Z, Y, Na):
    """FBA (goyal1998 4.2): drop if ``X > R`` and ``Y*Na/X > Z*(K-R)/(X-R)``.

    Both sides are multiplied by ``X*(X-R) > 0`` so that no division is needed.
    """
    return X <= R or Y * Na * (X - R) <= Z * (K - R) * X


@jit
def packet_admission(policy, X, K, R, Z, Y, Na):
    """Decision on a packet's first cell: ``ACCEPT`` or the drop reason."""
    if policy == EPD:
        return ACCEPT if epd_admits(X, K, R, Z, Y, Na) else DROP_THRESHOLD
    if policy == SELECTIVE_DROP:
        return ACCEPT if selective_drop_admits(X, K, R, Z, Y, Na) else DROP_PERVC
    if policy == FBA:
        return ACCEPT if fba_admits(X, K, R, Z, Y, Na) else DROP_PERVC
    return ACCEPT  # TAIL and PPD admit every packet while there is room


@jit
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


@jit
def espd_decision(listed, X, K, R1, R2, list_full, bom, eom):
    """Early Selective Packet Discard, cheon 3.3's pseudocode line by line, for one cell.

    ``listed``: the cell's VC is on the drop-list; ``X``: queue length, ``K``: buffer
    size, ``R1``/``R2``: buffer thresholds 1 and 2 (cells); ``list_full``: the drop-list
    holds drop-list-threshold VCs. Returns ``(decision, action)``: ``ACCEPT`` or a drop
    reason, and what happens to the VC on the list (``ESPD_STAY``, ``ESPD_CAPTURE``,
    ``ESPD_RELEASE``). The drop timer is the caller's
    (:func:`atmtcp.kernel.cells.espd_port_decision`).

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


@jit
def red_probability(X, K, log_one, slope):
    """lakshman 2.2: "we associate a drop probability with each buffer occupancy level", an
    exponential function of the occupancy from RED_one (one cell) to RED_full (the buffer full):
    ``exp(log_one + (X - 1) * slope)``; an empty buffer drops nothing (our choice)."""
    if X <= 0:
        return 0.0
    return math.exp(log_one + (min(X, K) - 1) * slope)


@jit
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
