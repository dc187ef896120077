"""The kernel's entry point for a run: the ahead-of-time module when it is built, numba's JIT
otherwise. Plain Python and numpy: with the ahead-of-time module, a process that runs
simulations never imports numba or LLVM.

Both give bit-identical results (they are the same machine code: the ahead-of-time module
links the functions numba compiled into its cache; ``tests/kernel/test_aot.py`` compares every golden
run). The ahead-of-time module exists only where ``atmtcp warm`` (``make warm``) built it, for
this kernel's sources, this CPU and this Python (:data:`atmtcp.kernel.sources.AOT_PATH`), or where
a wheel carries it, built for a baseline CPU (:func:`atmtcp.kernel.sources.prebuilt_path`).
``ATMTCP_NO_AOT=1`` (or ``ATMTCP_NO_CACHE=1``) makes every run use the JIT.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import sys
from pathlib import Path
from typing import Callable

from .layout import G_FAULT_ARG0, G_FAULT_NARGS, G_NFIELDS
from .sources import AOT_MODULE, AOT_PATH, prebuilt_path, runs_portable, seal_problem
from .tables import LAY_OFFSET, T_G, KernelState

_chosen: tuple[Callable[[KernelState], int], str] | None = None
"""This process's kernel and its kind (``"aot"`` or ``"jit"``), once chosen."""


def aot_enabled() -> bool:
    """Whether runs may use the ahead-of-time module (``ATMTCP_NO_AOT`` and ``ATMTCP_NO_CACHE``
    unset)."""
    return os.environ.get("ATMTCP_NO_AOT") is None and os.environ.get("ATMTCP_NO_CACHE") is None


def aot_paths() -> list[Path]:
    """Where this process looks for the ahead-of-time kernel, in order: the module ``atmtcp warm``
    built for this host (:data:`AOT_PATH`), then the one a wheel carries (:func:`prebuilt_path`,
    built for :data:`~atmtcp.kernel.sources.PORTABLE_CPU`) where this CPU runs it."""
    return [AOT_PATH, prebuilt_path()] if runs_portable() else [AOT_PATH]


def load_aot():
    """The first whole ahead-of-time module of this kernel among :func:`aot_paths`, or None where
    none is there. A module whose checksum does not match (truncated, overwritten) or that does not
    load is reported in one line on stderr and removed, and the run uses the next one or numba's
    JIT; ``atmtcp warm`` builds the host's module again."""
    for path in aot_paths():
        if path.exists() and (module := _load_sealed(path)) is not None:
            return module
    return None


def _load_sealed(path: Path):
    problem = seal_problem(path)
    if problem is None:
        try:
            spec = importlib.util.spec_from_file_location(AOT_MODULE, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
        except ImportError as error:
            problem = f"does not load ({error})"
    discard_aot(problem, path)
    return None


def discard_aot(problem: str, path: Path | None = None) -> None:
    """Say in one line that the ahead-of-time module at ``path`` (default :data:`AOT_PATH`)
    ``problem`` (e.g. "is damaged (...)"), and remove it."""
    path = AOT_PATH if path is None else path
    try:
        path.unlink()
        done = "removed it; this process uses numba's JIT, and `atmtcp warm` builds the module again"
    except FileNotFoundError:
        done = "another process removed it; `atmtcp warm` builds it again"
    except OSError as error:
        done = f"could not remove it ({error.strerror or error}): delete it and run `atmtcp warm`"
    print(f"atmtcp: the ahead-of-time kernel {path} {problem}: {done}", file=sys.stderr, flush=True)


def aot_runner(module) -> Callable[[KernelState], int]:
    """``run_until_end`` of the ahead-of-time ``module``, taking a :class:`KernelState`
    (:func:`with_fault_args`)."""
    run = module.run
    return with_fault_args(lambda state: run(state.I, state.F, state.B, state.lay))


@functools.lru_cache(maxsize=None)
def jit_runner() -> Callable[[KernelState], int]:
    """numba's ``run_until_end`` (compiled, or loaded from numba's cache, on its first call), as
    :func:`with_fault_args` gives it; one function per process."""
    from .engine import run_until_end
    return with_fault_args(run_until_end)


def fault_args(state: KernelState) -> tuple[int, ...]:
    """The numbers the kernel kept for its last fault (``G_FAULT_NARGS`` of ``G_FAULT_ARG0``), or ``()``."""
    start = int(state.lay[T_G, LAY_OFFSET])
    g = state.I[start:start + G_NFIELDS]
    return tuple(int(value) for value in g[G_FAULT_ARG0:G_FAULT_ARG0 + g[G_FAULT_NARGS]])


def with_fault_args(run: Callable[[KernelState], int]) -> Callable[[KernelState], int]:
    """``run``, whose ``ValueError`` of a kernel fault carries the numbers it names after its message
    (:mod:`atmtcp.kernel.faults`: the kernel raises the message alone)."""
    @functools.wraps(run)
    def runner(state: KernelState) -> int:
        try:
            return run(state)
        except ValueError as error:
            named = fault_args(state)
            if len(error.args) == 1 and named:
                raise ValueError(*error.args, *named) from None
            raise
    return runner


def _choose() -> tuple[Callable[[KernelState], int], str]:
    global _chosen
    if _chosen is None:
        module = load_aot() if aot_enabled() else None
        _chosen = (aot_runner(module), "aot") if module is not None else (jit_runner(), "jit")
    return _chosen


def kernel_entry() -> Callable[[KernelState], int]:
    """The function that runs a :class:`KernelState` until its end (or until a resource runs
    low) and returns the status: the ahead-of-time module's when it is built and allowed, else
    numba's. Chosen once per process."""
    return _choose()[0]


def entry_kind() -> str:
    """Which kernel :func:`kernel_entry` runs in this process: ``"aot"`` or ``"jit"``."""
    return _choose()[1]
