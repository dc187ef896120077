"""Every kernel table, its shape and its empty default: what a compiled run does not fill.

The tables themselves are :data:`atmtcp.kernel.tables.TABLES`, with the column counts the kernel
fixes (:data:`~atmtcp.kernel.tables.FIXED_COLUMNS`). A path of the compiler (:mod:`.cells`,
:mod:`.packets`) builds only the tables it fills and passes them to :func:`sim_state`; every other
table is the schema's empty default: no rows, the kernel's column count (a run of cell ports has
no router queue, a run of router ports no cell port).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..kernel.tables import FIXED_COLUMNS, TABLES, SimState, Zeros

VECTORS = frozenset({"g", "pv_vc", "pv_count", "pv_state", "pv_front", "ring_pv", "ring_t", "ring_cell",
                     "h_time", "h_seq", "h_kind", "h_id", "trace_t", "trace_v"})
"""The 1-D tables (the kernel's views ``ivec``/``fvec``, :mod:`atmtcp.kernel.state`); the others are 2-D."""


@dataclass(frozen=True)
class TableSchema:
    """One kernel table: its name, dtype and columns (``None`` for a 1-D table, 0 for a 2-D table
    whose width depends on the run: hops, sampled ports, scoreboard size).

    Parameters
    ----------
    name : str
        The table's name (:data:`atmtcp.kernel.tables.TABLES`).
    dtype : type
        ``numpy.int64`` or ``numpy.float64``.
    columns : int or None
        The columns; None: a 1-D table; 0: a width set by the run.
    """

    name: str
    dtype: type
    columns: int | None

    def empty(self) -> Zeros:
        """The table with no rows: the default of a table a run does not fill.

        Returns
        -------
        atmtcp.kernel.tables.Zeros
        """
        return Zeros((0,) if self.columns is None else (0, self.columns))


SCHEMA = tuple(TableSchema(name, dtype, None if name in VECTORS else columns)
               for (name, dtype, _), columns in zip(TABLES, FIXED_COLUMNS))
"""One :class:`TableSchema` per kernel table, in the order of :data:`~atmtcp.kernel.tables.TABLES`."""


def sim_state(**tables) -> SimState:
    """A :class:`~atmtcp.kernel.tables.SimState` of the given tables (arrays or placeholders for
    :func:`~atmtcp.kernel.tables.pack`), every other table its empty default.

    Parameters
    ----------
    **tables
        Table name -> array or placeholder.

    Returns
    -------
    atmtcp.kernel.tables.SimState

    Raises
    ------
    ValueError
        If a name is not a kernel table's.
    """
    unknown = set(tables) - {table.name for table in SCHEMA}
    if unknown:
        raise ValueError(f"not kernel tables: {sorted(unknown)}")
    return SimState(**{table.name: tables.get(table.name, table.empty()) for table in SCHEMA})
