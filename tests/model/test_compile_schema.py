"""The compiler's package (atmtcp/compile): its schema of the kernel's tables, the shapes of the tables
both paths build, and the package's imports (no private name of another module, no cycle)."""
import ast
import re
from pathlib import Path

import numpy as np
import pytest

from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.compile.schema import SCHEMA, VECTORS, sim_state
from atmtcp.dependencies import imported_modules, module_name
from atmtcp.kernel.tables import FIXED_COLUMNS, TABLES
from atmtcp.papers.ewa.shared.scenario import ewa_network
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run

COMPILE_DIR = Path(__file__).resolve().parents[2] / "atmtcp" / "compile"
KERNEL_DIR = COMPILE_DIR.parent / "kernel"


def test_the_schema_is_the_kernels_tables():
    """One entry per kernel table, in its order, with its dtype and (where fixed) its column count."""
    assert [t.name for t in SCHEMA] == [name for name, _, _ in TABLES]
    for table, (name, dtype, _), columns in zip(SCHEMA, TABLES, FIXED_COLUMNS):
        assert table.dtype is dtype, name
        assert table.columns == (None if name in VECTORS else columns), name


def test_the_vectors_are_the_tables_the_kernel_views_as_vectors():
    """A table the kernel views with ivec/fvec is 1-D in the schema; one it views with itab/ftab/btab 2-D."""
    views = {}
    for path in KERNEL_DIR.glob("*.py"):
        for kind, table in re.findall(r"\b(ivec|fvec|itab|ftab|btab)\(S, T_([A-Z_]+)\)", path.read_text()):
            views.setdefault(table.lower(), set()).add(kind in ("ivec", "fvec"))
    assert views, "no kernel views found"
    for name, is_vector in views.items():
        assert is_vector == {name in VECTORS}, name


def test_an_unknown_table_is_refused():
    with pytest.raises(ValueError, match="not kernel tables"):
        sim_state(nonsense=np.zeros(1))


def _cell_run():
    trace = m.TraceConfig(connections=(0,), ports=(BOTTLENECK,))
    return n_source_run(3, 5e-6, m.PortConfig(500, m.DropPolicy("epd"), slotted=True), m.TcpConfig(), 0.1,
                        trace=trace, contention="deterministic")


def _packet_run():
    from atmtcp.internetwork import RouterPort
    net = ewa_network({1: (("S1", 1e-3), ("S2", 1e-3)), 2: (("D1", 0.0), ("D2", 0.0))},
                      RouterPort(buffer_bytes=100 * 1024), atm_delays_s=(5e-3, 0.0, 0.0, 0.0))
    conns = tuple(m.Connection(f"S{i}", f"D{i}", m.TcpConfig(mss=1500)) for i in (1, 2))
    return m.Run(net, conns, 0.1, trace=m.TraceConfig(ports=("AAP1->ATM",), sample_interval_s=0.01))


@pytest.mark.parametrize("make", [_cell_run, _packet_run], ids=["cells", "packets"])
def test_each_path_gives_every_table_the_schemas_shape(make):
    """Every table of a compiled run has the schema's dimensions, and its column count where fixed;
    the path's own tables have rows, the other path's are the schema's empty defaults."""
    compiled = compile_run(make())
    for table in SCHEMA:
        array = getattr(compiled.state, table.name)
        assert array.dtype == table.dtype, table.name
        if table.columns is None:
            assert array.ndim == 1, table.name
        else:
            assert array.ndim == 2, table.name
            if table.columns:
                assert array.shape[1] == table.columns, table.name
    own, other = ("port", "rport") if compiled.port_names else ("rport", "port")
    assert getattr(compiled.state, own).shape[0] > 0
    assert getattr(compiled.state, other).shape[0] == 0


def _modules():
    return sorted(COMPILE_DIR.glob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_module_uses_a_private_name_of_another(path):
    """No ``from x import _name`` and no ``x._name`` of an imported module ``x``."""
    tree = ast.parse(path.read_text())
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            private = [a.name for a in node.names if a.name.startswith("_")]
            assert not private, f"{path.name} imports {private} from {node.module}"
            modules.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name.split(".")[0] for a in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            is_private = node.attr.startswith("_") and not node.attr.startswith("__")
            assert not is_private, f"{path.name} uses {node.value.id}.{node.attr}"


def test_the_package_has_no_import_cycle():
    """The modules of atmtcp/compile import one another in one direction only."""
    package = module_name(COMPILE_DIR / "__init__.py")
    graph = {module_name(p): {n for n in imported_modules(p) if n.startswith(package + ".")}
             for p in _modules()}
    done: set[str] = set()

    def visit(name, stack):
        assert name not in stack, f"import cycle: {' -> '.join([*stack, name])}"
        if name not in done:
            for nxt in graph.get(name, ()):
                visit(nxt, [*stack, name])
            done.add(name)

    for name in graph:
        visit(name, [])
