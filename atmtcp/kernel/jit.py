"""The one place where the kernel's numba options are set (stumpy's habit).

``cache=True`` keeps compiled machine code on disk next to the sources, so only the
first call after an edit pays for compilation. ``fastmath`` stays off: the kernel must
give bit-identical results for identical inputs.
"""
import os

import numba

JIT_OPTIONS = {"cache": os.environ.get("ATMTCP_NO_CACHE") is None, "nogil": True, "boundscheck": False, "error_model": "numpy"}


def jit(function):
    """Compile ``function`` with the kernel's numba options."""
    return numba.njit(**JIT_OPTIONS)(function)


def jit_inline(function):
    """Like :func:`jit`, and inlined into its callers at numba-IR level.

    For the small functions on the per-cell path: a call would copy the whole state
    tuple (29 arrays) by value, which costs more than the function's own work.
    """
    return numba.njit(inline="always", **JIT_OPTIONS)(function)
