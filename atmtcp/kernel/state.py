"""The kernel's views of its tables (:mod:`atmtcp.kernel.tables`).

Kernel functions take views of the tables they use with :func:`itab`, :func:`ivec`,
:func:`ftab`, :func:`fvec` and :func:`btab`; the views share memory with the arenas of
:class:`~atmtcp.kernel.tables.KernelState`. The ``T_*`` table numbers are re-exported here for
the kernel's modules.
"""
import numba
import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

from . import tables
from .jit import jit_inline
from .tables import TABLES, Extended, KernelState, SimState, Zeros, pack  # noqa: F401 (re-exported)

globals().update({name: value for name, value in vars(tables).items() if name.startswith(("T_", "LAY_"))})


@intrinsic
def address_as_void_pointer(typingctx, address):
    """Reinterpret an integer address as ``void*`` (numba has no built-in cast)."""
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(address), codegen


@jit_inline
def itab(S, t):
    """2-D int64 table ``t`` (a ``T_*`` constant) as a view."""
    address = S.I.ctypes.data + S.lay[t, 0] * 8
    return numba.carray(address_as_void_pointer(address), (S.lay[t, 1], S.lay[t, 2]), np.int64)


@jit_inline
def ivec(S, t):
    """1-D int64 table ``t`` as a view."""
    address = S.I.ctypes.data + S.lay[t, 0] * 8
    return numba.carray(address_as_void_pointer(address), S.lay[t, 1], np.int64)


@jit_inline
def ftab(S, t):
    """2-D float64 table ``t`` as a view."""
    address = S.F.ctypes.data + S.lay[t, 0] * 8
    return numba.carray(address_as_void_pointer(address), (S.lay[t, 1], S.lay[t, 2]), np.float64)


@jit_inline
def fvec(S, t):
    """1-D float64 table ``t`` as a view."""
    address = S.F.ctypes.data + S.lay[t, 0] * 8
    return numba.carray(address_as_void_pointer(address), S.lay[t, 1], np.float64)


@jit_inline
def btab(S, t):
    """2-D uint8 table ``t`` as a view."""
    address = S.B.ctypes.data + S.lay[t, 0]
    return numba.carray(address_as_void_pointer(address), (S.lay[t, 1], S.lay[t, 2]), np.uint8)
