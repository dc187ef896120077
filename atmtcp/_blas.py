"""One BLAS thread for the command line (issue 39).

atmtcp calls no BLAS routine, but numpy's OpenBLAS starts a pool of threads when numpy is imported,
one per core, and their start and idle spinning took about a third of the CPU time of an
``atmtcp run``. The ``atmtcp`` command (and ``python -m atmtcp``) therefore sets
``OPENBLAS_NUM_THREADS`` and ``OMP_NUM_THREADS`` to 1 before numpy is imported, unless the user set
them. It must run before the package's ``__init__`` imports numpy, so ``atmtcp/__init__.py`` calls it
first; a program that imports atmtcp as a library keeps its own settings.
"""
from __future__ import annotations

import os
import sys

VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")


def is_command_line(argv: list[str] | None = None, orig_argv: list[str] | None = None) -> bool:
    """Whether this process is the ``atmtcp`` command: its script is named ``atmtcp``, or Python was
    started with ``-m atmtcp`` or ``-m atmtcp.cli``."""
    argv = sys.argv if argv is None else argv
    orig_argv = getattr(sys, "orig_argv", []) if orig_argv is None else orig_argv
    if argv and os.path.basename(argv[0]) == "atmtcp":
        return True
    if "-m" in orig_argv[1:]:
        at = orig_argv.index("-m", 1)
        return at + 1 < len(orig_argv) and orig_argv[at + 1] in ("atmtcp", "atmtcp.cli")
    return False


def one_blas_thread_for_the_command_line() -> None:
    """Set :data:`VARIABLES` to 1 where unset, if this is the command line and numpy is not yet loaded."""
    if "numpy" in sys.modules or not is_command_line():
        return
    for name in VARIABLES:
        os.environ.setdefault(name, "1")
