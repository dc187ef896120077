"""The package's layering, read from the source (every ``import`` of every module under atmtcp/, at module
level and inside functions, relative and absolute): no import cycle; the kernel imports nothing of atmtcp
outside itself; a paper's package is imported only by its own modules and the few that run every paper.

An edge A -> B means that A's source names B in an import: ``from .x import y`` is an edge to the module
``x.y`` where that is a module, else to ``x``. Importing a submodule also runs its packages' ``__init__``
files; those implicit imports are not edges (a package importing its own submodules is no cycle).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "atmtcp"


PAPER_IMPORTERS = (
    "atmtcp.atlas",         # the atlas runs every paper's scenarios under every policy and TCP
    "atmtcp.bench",         # the benchmark times a scenario of each paper
    "atmtcp.validation",    # the cross-check runs the papers' scenarios in an independent simulator
)
"""The modules (and packages) outside atmtcp/papers/ that may import a paper's package. The registry
(:mod:`atmtcp.papers`, read by :mod:`atmtcp.experiments`) finds the packages by name, with no import
statement."""
CROSS_PAPER = {("goyal1997", "goyal1998")}
"""(paper, paper it may import): goyal1997's slides present goyal1998's simulator, its networks and TCP."""


def module_names() -> dict[str, Path]:
    """Every module of the package: dotted name -> file (a package's ``__init__.py`` -> the package)."""
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _imported(node: ast.AST, module: str, is_package: bool, modules: dict[str, Path]) -> set[str]:
    """The atmtcp modules one import statement names."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    source = node.module or ""
    if node.level:
        base = module if is_package else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        source = ".".join(p for p in (base, node.module) if p)
    return {f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source for alias in node.names}


def import_graph() -> dict[str, set[str]]:
    """Module -> the atmtcp modules it imports (itself left out)."""
    modules = module_names()
    graph = {}
    for module, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found |= _imported(node, module, path.name == "__init__.py", modules)
        graph[module] = {name for name in found if name in modules and name != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def paper_of(module: str) -> str | None:
    """The paper whose package holds ``module`` (``atmtcp.papers.<key>...``), or None."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["atmtcp", "papers"] else None


def may_import_paper(importer: str, paper: str) -> bool:
    """Whether ``importer`` may import a module of ``paper``'s package."""
    own = paper_of(importer)
    if own is not None:
        return own == paper or (own, paper) in CROSS_PAPER
    return any(importer == allowed or importer.startswith(allowed + ".") for allowed in PAPER_IMPORTERS)


def test_no_import_cycle():
    found = cycles(import_graph())
    assert not found, "import cycles among atmtcp's modules: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_graph_sees_relative_function_level_and_absolute_imports():
    graph = import_graph()
    assert "atmtcp.n_source" in graph["atmtcp.default_run"]                       # from .n_source import ...
    assert "atmtcp.default_run" in graph["atmtcp.cli"]                            # inside cmd_run
    assert "atmtcp.papers.ewa.section4.scenario" in graph["atmtcp.bench"]          # inside scenario_run
    assert {"atmtcp.model", "atmtcp.simulate"} <= graph["atmtcp"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_kernel_imports_nothing_of_atmtcp_outside_it():
    graph = import_graph()
    outside = {(a, b) for a, targets in graph.items() if a.startswith("atmtcp.kernel")
               for b in targets if not (b == "atmtcp.kernel" or b.startswith("atmtcp.kernel."))}
    assert not outside, sorted(outside)


def test_a_paper_package_is_imported_only_by_its_own_and_the_allowed_modules():
    graph = import_graph()
    wrong = sorted((a, b) for a, targets in graph.items() for b in targets
                   if paper_of(b) is not None and not may_import_paper(a, paper_of(b)))
    assert not wrong, f"imports of a paper's package from outside it: {wrong}"
    importers = {a for a, targets in graph.items() for b in targets if paper_of(b) and not paper_of(a)}
    assert {a.split(".")[1] for a in importers} == {"atlas", "bench", "validation"}
