"""Turn a validated :class:`atmtcp.model.Run` into the kernel's tables (:mod:`atmtcp.kernel.tables`).

A run on a :class:`~atmtcp.model.Network` of ATM switches goes down the cell path (:mod:`.cells`, with
its ports in :mod:`.cell_ports`); a run on an :class:`~atmtcp.internetwork.Internetwork` of IP routers
and ATM access points down the packet path (:mod:`.packets`, with its ports and queues in
:mod:`.router_ports`). Both route alike (:mod:`.routes`), fill the connections' tables alike
(:mod:`.connections`) and share the sizes, margins and packing of :mod:`.core`; each builds only the
tables it fills, and :mod:`.schema` gives every other table its empty default.
"""
from __future__ import annotations

import copy

from .. import model as m
from .cells import compile_cells
from .core import NS, Compiled, Growth, Margins, cell_time_ns, set_low_marks
from .packets import compile_packets

__all__ = ["NS", "Compiled", "Growth", "Margins", "cell_time_ns", "compile_run", "set_low_marks"]


def compile_run(run: m.Run, growth: Growth | None = None) -> Compiled:
    """Allocate and fill the kernel state for ``run``, on the cell path or the packet path.

    Parameters
    ----------
    run : atmtcp.model.Run
        The run; an :class:`~atmtcp.internetwork.Internetwork` goes to the packet path.
    growth : Growth, optional
        Multiplies the sizes of the growable tables; each gets one event's :class:`Margins` on top,
        so the first event fits. :mod:`atmtcp.grow` grows a table that runs low in the paused run.

    Returns
    -------
    Compiled
        The kernel's arrays and the names of the ports and connections.
    """
    growth = copy.deepcopy(growth) if growth else Growth()
    if isinstance(run.network, m.Network):
        return compile_cells(run, growth)
    return compile_packets(run, growth)  # IP networks and ATM access points: whole packets
