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

Adding a policy (ESPD, RED at the frame level, ...): write ``<name>_admits`` below, give it
a code in :mod:`atmtcp.kernel.layout`, and add its line to :func:`packet_admission`.
"""
from .jit import jit
from .layout import (
    ACCEPT, DROP_OVERFLOW, DROP_PARTIAL, DROP_PERVC, DROP_THRESHOLD,
    EPD, FBA, PPD, PV_DISCARD_ALL, PV_DISCARD_KEEP_EOM, PV_NORMAL, SELECTIVE_DROP, TAIL,
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
def cell_decision(policy, keep_eom, state, X, K, R, Z, Y, Na, bom, eom):
    """Decide one arriving cell. Returns ``(decision, new_state)``.

    ``decision`` is ``ACCEPT`` or a drop reason; ``state`` is the VC's discard state at
    this port (``PV_*``: the VC is on cheon's "drop-list" when it is not ``PV_NORMAL``).

    - TAIL (random cell discard): a cell is dropped only when the buffer is full.
    - PPD (cheon 3.1 pseudocode): a full buffer puts the VC on the drop-list; every later
      cell of that packet is discarded, the EOM cell included, and the EOM takes the VC
      off the list. A dropped EOM does not put the VC on the list (the packet is over:
      "discards all the subsequent cells of the packet").
    - EPD, Selective Drop, FBA (cheon 3.2 pseudocode, the packet rule from
      :func:`packet_admission`): a rejected first cell or a full buffer puts the VC on the
      drop-list; later cells are discarded except the EOM, which enters if there is room
      ("EOM cells enter the buffer whenever the space is available") when ``keep_eom``.
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
    if bom:
        reason = packet_admission(policy, X, K, R, Z, Y, Na)
        if reason != ACCEPT:
            return reason, (PV_NORMAL if eom else discard_state)
    if X >= K:
        if policy == TAIL or eom:
            return DROP_OVERFLOW, PV_NORMAL
        if policy == PPD:
            return DROP_OVERFLOW, PV_DISCARD_ALL
        return DROP_OVERFLOW, discard_state
    return ACCEPT, PV_NORMAL
