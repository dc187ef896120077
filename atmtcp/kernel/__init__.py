"""The numba discrete-event kernel. It knows no paper: it simulates a network described by
the arrays of :class:`atmtcp.kernel.tables.SimState` (built by :mod:`atmtcp.compile`).

Importing this package imports no numba: :func:`atmtcp.kernel.entry.kernel_entry` picks the
ahead-of-time module when it is built, and only then falls back to numba
(:func:`run_until_end` is loaded on first use).
"""
from .tables import KernelState, SimState, pack

__all__ = ["run_until_end", "KernelState", "SimState", "pack"]


def __getattr__(name):
    if name == "run_until_end":
        from .engine import run_until_end
        return run_until_end
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
