"""The one place where the kernel's numba options are set (stumpy's habit).

``cache=True`` keeps compiled machine code on disk, so only the first call after an edit
pays for compilation (about 4 minutes of CPU). numba notices a change only in a function's *own*
file, not in the files of the functions it calls, so a stale caller could keep running an
old callee. The cache therefore lives in a folder named by a hash of every kernel source
file: any edit to the kernel starts a fresh cache. ``fastmath`` stays off: the kernel
must give bit-identical results for identical inputs. ``ATMTCP_NO_CACHE=1`` disables the
cache (for debugging), and with it the ahead-of-time module (:mod:`atmtcp.kernel.entry`).
"""
import os

import numba

from .sources import CACHE_DIR

USE_CACHE = os.environ.get("ATMTCP_NO_CACHE") is None

JIT_OPTIONS = {"cache": USE_CACHE, "nogil": True, "boundscheck": False, "error_model": "numpy"}


def _njit(function, **options):
    # numba picks a function's cache folder when it is decorated, from numba.config.CACHE_DIR;
    # set it for our functions only, so that other numba code in the process is not affected.
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(CACHE_DIR)
    try:
        return numba.njit(**options, **JIT_OPTIONS)(function)
    finally:
        numba.config.CACHE_DIR = previous


def jit(function):
    """Compile ``function`` with the kernel's numba options."""
    return _njit(function)


def jit_inline(function):
    """Like :func:`jit`, and inlined into its callers at numba-IR level.

    For the small functions on the per-cell path: a call would copy its arguments by
    value, which costs more than the function's own work.
    """
    return _njit(function, inline="always")
