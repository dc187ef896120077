"""Which of atmtcp's source files an experiment's results depend on.

An experiment's numbers come from the modules that define its grid, its runs and its reductions,
and from everything those import inside atmtcp: the model, the compiler, the kernel, the paper's
scenario. They do not come from its figures, claims, comparison or notebook. :func:`experiment_sources`
follows the ``import`` statements (read from the source, not executed) from the modules of the
experiment's functions, and from :mod:`atmtcp.runner`, which assembles and writes its file. The
kernel counts as one unit: a module that imports any kernel file depends on all of them, as numba's
cache does (:mod:`atmtcp.kernel.sources`).

Both the Snakefile (the inputs of an experiment's job) and the grid-point cache of
:mod:`atmtcp.runner` (:func:`experiment_hash`) use it, so editing a figure or a claim re-runs no
simulation, and editing the kernel, the model or a paper's scenario re-runs the experiments that use
it. Package ``__init__`` files count only where a name is imported from them that is not a submodule.
"""
from __future__ import annotations

import ast
import functools
from pathlib import Path

from .kernel.sources import KERNEL_DIR, hash_sources

PACKAGE_DIR = Path(__file__).resolve().parent
PACKAGE = PACKAGE_DIR.name
MACHINERY = ("atmtcp.runner",)
"""Modules every experiment's file depends on, besides its own: the runner stacks and writes it."""


@functools.lru_cache(maxsize=None)
def module_file(name: str, root: Path = PACKAGE_DIR) -> Path | None:
    """The file of module ``atmtcp.a.b`` (``a/b.py`` or ``a/b/__init__.py``), or None. Cached, as
    :func:`imported_modules` is: a process looks each name up once."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = root.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_name(path: Path, root: Path = PACKAGE_DIR) -> str:
    """``atmtcp/a/b.py`` -> ``atmtcp.a.b`` (a package's ``__init__.py`` -> the package)."""
    parts = list(path.resolve().relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def _resolve(module: str, node: ast.ImportFrom, path: Path) -> str:
    """The absolute name of a ``from ... import`` statement's module in the file ``path``."""
    if node.level == 0:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


@functools.lru_cache(maxsize=None)
def imported_modules(path: Path, root: Path = PACKAGE_DIR) -> frozenset[str]:
    """The atmtcp modules the file ``path`` imports: ``import atmtcp.x``, ``from .x import y`` (the
    module ``x``, or its submodule ``x.y`` where ``y`` is one). Cached: a process reads each file's
    imports once (the hashes read the files' contents anew)."""
    module = module_name(path, root)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node, path)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if module_file(submodule, root) else base)
    return frozenset(name for name in found if name.split(".")[0] == PACKAGE and module_file(name, root))


def closure(modules, root: Path = PACKAGE_DIR) -> list[Path]:
    """Every file the ``modules`` import, transitively, with themselves; all of the kernel's files
    where any one is reached. Sorted."""
    files: set[Path] = set()
    pending = [module_file(m, root) for m in modules]
    kernel = root / KERNEL_DIR.relative_to(PACKAGE_DIR)
    kernel_added = False
    while pending:
        path = pending.pop()
        if path is None or path in files:
            continue
        files.add(path)
        if path.parent == kernel and not kernel_added:
            pending += kernel.glob("*.py")
            kernel_added = True
        pending += [module_file(m, root) for m in imported_modules(path, root)]
    return sorted(files)


def _function_modules(experiment) -> set[str]:
    """The modules that define an experiment's functions (through ``functools.partial`` too)."""
    modules = set()
    for name in ("points", "run_point", "derive", "finish", "parameters"):
        fn = getattr(experiment, name, None)
        while isinstance(fn, functools.partial):
            fn = fn.func
        if fn is not None and getattr(fn, "__module__", None):
            modules.add(fn.__module__)
    return modules


def experiment_sources(experiment, root: Path = PACKAGE_DIR) -> list[Path]:
    """The source files whose content an experiment's results depend on (see the module docstring)."""
    return closure(sorted(_function_modules(experiment)) + list(MACHINERY), root)


def experiment_hash(experiment, root: Path = PACKAGE_DIR) -> str:
    """16 hex digits of the content of :func:`experiment_sources`: part of each cached point's key."""
    return hash_sources(experiment_sources(experiment, root))
