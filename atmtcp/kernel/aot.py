"""Build the kernel ahead of time: one extension module that runs without numba.

A process that loads the kernel from numba's cache first imports numba and its lowering
registries (about 0.3 s and 120 MB before the first event; docs/speed.md). numba's ahead-of-time
compiler (``numba.pycc``) links the same compiled functions into a plain CPython extension
module that needs only numpy, so ``atmtcp run`` and every simulating process skip numba
altogether (:mod:`atmtcp.kernel.entry`). The module's one function, ``run(I, F, B, lay)``, is
:func:`atmtcp.kernel.engine.run_until_end` on the four arenas of a
:class:`~atmtcp.kernel.tables.KernelState`.

Building links what numba compiled into its cache, so after ``warm_kernel`` it takes seconds;
with a cold cache it compiles the kernel first (minutes). It needs a C compiler and Python's
headers (as numba's own build does); without them the JIT stays in use. ``numba.pycc`` is
deprecated (still in numba 0.68): when it goes, only this module and the speed it buys go.

The module's ``run`` releases the GIL while the kernel runs, as the JIT's ``nogil=True`` does, so that
a run in a worker thread can be interrupted (:func:`atmtcp.simulate.run_kernel`), and the module ends
with a checksum (:func:`atmtcp.kernel.sources.seal`) checked before it is loaded.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from .engine import run_until_end
from .sources import AOT_DIR, AOT_MODULE, AOT_PATH, PORTABLE_CPU, PREBUILT_DIR, prebuilt_path, seal, seal_problem
from .tables import KernelState

SIGNATURE = "int64(int64[::1], float64[::1], uint8[::1], int64[:, ::1])"
"""``run``'s arguments: the arenas I, F, B and the layout table of a :class:`KernelState`."""


def run(I, F, B, lay):
    """:func:`run_until_end` on the arenas of a :class:`KernelState` (the exported function)."""
    return run_until_end(KernelState(I, F, B, lay))


def build(force: bool = False) -> Path:
    """Build the ahead-of-time module of this kernel (:data:`AOT_PATH`) unless a whole one (its
    checksum matches) is built; return its path. The module is written under a temporary name and
    renamed, so a process never loads a half-written one, and two builders at once both leave a
    whole one."""
    if AOT_PATH.exists() and not force and seal_problem(AOT_PATH) is None:
        return AOT_PATH
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc's pending deprecation
        from llvmlite import binding
        from numba.pycc import CC, compiler as pycc_compiler
    AOT_DIR.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="build-", dir=AOT_DIR))
    try:
        compiler = CC(AOT_MODULE, source_module=__name__)
        compiler.output_dir = str(workdir)
        # as numba's JIT: the cached code is for this CPU, or for NUMBA_CPU_NAME's
        compiler.target_cpu = os.environ.get("NUMBA_CPU_NAME") or binding.get_host_cpu_name()
        compiler.export("run", SIGNATURE)(run)
        flags = pycc_compiler.Flags
        pycc_compiler.Flags = _flags_releasing_the_gil(flags)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compiler.compile()
        finally:
            pycc_compiler.Flags = flags
        seal(workdir / compiler.output_file)
        os.replace(workdir / compiler.output_file, AOT_PATH)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return AOT_PATH


def build_portable() -> Path:
    """Build the kernel for :data:`~atmtcp.kernel.sources.PORTABLE_CPU` instead of this host's CPU
    and put its ahead-of-time module where a wheel carries it (:func:`prebuilt_path`), replacing any
    other prebuilt module; return its path. ``atmtcp warm --portable``, run by the wheel's build
    (``build_backend/``). numba reads its CPU settings when it is imported, so the build runs in a
    child process with ``NUMBA_CPU_NAME`` set and ``NUMBA_CPU_FEATURES`` empty (the CPU name alone then
    decides the instruction set; otherwise numba would add every feature of this host). The child
    checks the module against numba's JIT of the same CPU, as ``atmtcp warm`` does."""
    env = dict(os.environ, NUMBA_CPU_NAME=PORTABLE_CPU, NUMBA_CPU_FEATURES="")
    for name in ("ATMTCP_NO_AOT", "ATMTCP_NO_CACHE"):
        env.pop(name, None)
    code = ("from atmtcp.simulate import build_kernel; from atmtcp.kernel.sources import AOT_PATH; "
            "print(build_kernel()); print(AOT_PATH)")
    done = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True, check=True)
    said, built = done.stdout.strip().splitlines()[-2:]
    if "built ahead of time" not in said or seal_problem(Path(built)) is not None:
        raise RuntimeError(f"the kernel for {PORTABLE_CPU} was not built ahead of time: {said}")
    shutil.rmtree(PREBUILT_DIR, ignore_errors=True)
    PREBUILT_DIR.mkdir()
    shutil.copyfile(built, prebuilt_path())
    return prebuilt_path()


def _flags_releasing_the_gil(flags_class):
    """numba.pycc builds its exported wrappers with ``Flags()``: these flags release the GIL around
    the call (numba's ``nogil``), which pycc has no option for. The compiled kernel is unchanged."""
    def flags():
        made = flags_class()
        made.release_gil = True
        return made
    return flags
