"""The kernel's table views (``itab``, ``ivec``, ``ftab``, ``fvec``, ``btab`` of
:mod:`atmtcp.kernel.state`), written as numba intrinsics: each view of every table, with its number
a constant (as the kernel writes it) or a run-time value, is the table numpy sees (the same first
element, shape and strides), on the cell path and the packet path, from the state of arrays and from the
four data pointers the kernel passes between its functions (``arena_pointers``)."""
import functools

import numba
import numpy as np
import pytest

from atmtcp.bench import SCENARIOS, scenario_run
from atmtcp.compile import compile_run
from atmtcp.kernel import state
from atmtcp.kernel.tables import TABLES

VIEW_OF = {(np.int64, 2): "itab", (np.int64, 1): "ivec", (np.float64, 2): "ftab", (np.float64, 1): "fvec",
           (np.uint8, 2): "btab"}
COLUMNS = 5  # address, rows, columns, row stride, element stride


def _view_name(table_number, array):
    return VIEW_OF[(np.dtype(TABLES[table_number][1]).type, array.ndim)]


@functools.lru_cache(maxsize=None)
def _describing_function(views, constant, pointers):
    """A jitted ``describe(S, out)`` writing each table's view (address, shape, strides) into a row of
    ``out``: with each table's number written as a constant or read from ``out`` at run time, of ``S``
    or (``pointers``) of ``arena_pointers(S)``."""
    lines = ["def describe(S, out):"] + (["    S = arena_pointers(S)"] if pointers else [])
    for t, name in views:
        number = str(t) if constant else f"out[{t}, 0]"
        lines += [f"    v = {name}(S, {number})",
                  f"    out[{t}, 0] = v.ctypes.data",
                  f"    out[{t}, 1] = v.shape[0]",
                  f"    out[{t}, 2] = {'v.shape[1]' if name.endswith('tab') else '1'}",
                  f"    out[{t}, 3] = v.strides[0]",
                  f"    out[{t}, 4] = v.strides[-1]"]
    namespace = {name: getattr(state, name) for name in [*VIEW_OF.values(), "arena_pointers"]}
    exec("\n".join(lines), namespace)
    return numba.njit(namespace["describe"])


def _numpy_description(array):
    rows = array.shape[0]
    columns = array.shape[1] if array.ndim == 2 else 1
    return [array.ctypes.data, rows, columns, array.strides[0], array.strides[-1]]


@pytest.mark.parametrize("row", [0, 11], ids=["cell path", "packet path"])
@pytest.mark.parametrize("constant", [True, False], ids=["constant number", "run-time number"])
@pytest.mark.parametrize("pointers", [False, True], ids=["arrays", "pointers"])
def test_every_view_is_the_table_numpy_sees(row, constant, pointers):
    compiled = compile_run(scenario_run(*SCENARIOS[row][1:]))
    tables = list(compiled.state)
    views = tuple((t, _view_name(t, array)) for t, array in enumerate(tables))
    out = np.zeros((len(tables), COLUMNS), np.int64)
    out[:, 0] = np.arange(len(tables))
    _describing_function(views, constant, pointers)(compiled.kernel_state, out)
    expected = np.array([_numpy_description(array) for array in tables], np.int64)
    for t, (name, _, _) in enumerate(TABLES):
        compared = slice(1, 3) if tables[t].size == 0 else slice(None)  # an empty table: its shape
        assert out[t, compared].tolist() == expected[t, compared].tolist(), f"{views[t][1]}(S, T_{name.upper()})"


def test_a_view_writes_into_the_arena():
    compiled = compile_run(scenario_run(*SCENARIOS[0][1:]))

    @numba.njit
    def write(S):
        state.itab(S, state.T_CONN)[1, 2] = 7
        pointers = state.arena_pointers(S)
        state.ftab(pointers, state.T_CONNF)[1, 0] = 0.5
        state.btab(pointers, state.T_RB)[0, 3] = 9

    write(compiled.kernel_state)
    assert compiled.state.conn[1, 2] == 7
    assert compiled.state.connf[1, 0] == 0.5
    assert compiled.state.rb[0, 3] == 9
