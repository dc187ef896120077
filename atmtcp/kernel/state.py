"""The kernel's views of its tables (:mod:`atmtcp.kernel.tables`).

Kernel functions take views of the tables they use with :func:`itab`, :func:`ivec`,
:func:`ftab`, :func:`fvec` and :func:`btab`; the views share memory with the arenas of
:class:`~atmtcp.kernel.tables.KernelState`. The ``T_*`` table numbers are re-exported here for
the kernel's modules.
"""
import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .jit import jit_inline
from .tables import (  # noqa: F401 (re-exported: the kernel's modules take T_* from here)
    FIXED_COLUMNS, LAY_COLS, LAY_OFFSET, LAY_ROWS, TABLES, Extended, KernelState, SimState, Zeros, pack,
    T_G, T_CONN, T_CONNF, T_RSACK, T_SB, T_RB, T_VC, T_VC_PORT, T_VC_CHAN, T_VC_DELAY, T_PORT, T_PORTF,
    T_VC_PV, T_PV_VC, T_PV_COUNT, T_PV_STATE, T_PV_FRONT, T_RING_PV, T_RING_T, T_RING_CELL, T_PEND, T_CHAN,
    T_CELL, T_PKT, T_H_TIME, T_H_SEQ, T_H_KIND, T_H_ID, T_TRACE_T, T_TRACE_I, T_TRACE_V, T_DROPLOG, T_QSAMPLE,
    T_OSAMPLE, T_LOSS, T_APP, T_FLOW, T_FLOW_RPORT, T_FLOW_RQ, T_RPORT, T_RQ, T_RQF, T_RQ_RING, T_RSAMPLE,
    T_RFSAMPLE, T_SEG_RTO,
)


@intrinsic
def address_as_void_pointer(typingctx, address):
    """Reinterpret an integer address as ``void*`` (numba has no built-in cast)."""
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(address), codegen


@intrinsic
def nonneg(typingctx, x):
    """``x``, an index the caller knows to be at least 0, with LLVM told so (``llvm.assume``).

    numba indexes an array with a signed integer by first adding the length to a negative one
    (Python's ``a[-1]``): three instructions per index, on every table access of the cell path. Told
    that the index is not negative, LLVM drops them. Only for values that are indices by
    construction (a record, VC, port, channel, slot or heap position): a negative one would be
    undefined behaviour, not an error."""
    def codegen(context, builder, signature, args):
        value = args[0]
        assume = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [ir.IntType(1)]), "llvm.assume")
        builder.call(assume, [builder.icmp_signed(">=", value, value.type(0))])
        return value
    return x(x), codegen


@intrinsic
def unliteral(typingctx, x):
    """``x`` typed as a plain integer, not as a literal (``Literal[int](0)``): a constant passed to a
    ``@jit`` function makes numba compile a copy of that function (and of the ``@jit`` functions it
    passes the argument on to) for that value, each as long to compile as the first, for nothing
    LLVM does not find by itself. Costs nothing at run time."""
    plain = types.unliteral(x)

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], signature.args[0], signature.return_type)
    return plain(x), codegen


@intrinsic
def layout_field(typingctx, lay, t, field):
    """``lay[t, field]`` of the 2-D layout table (3 columns), loaded with LLVM's ``!invariant.load``.

    The kernel never writes its layout, but LLVM cannot tell it from the arenas it describes (all
    int64 memory): an ordinary load would be repeated after every store into an arena, at each view
    of a table. An invariant load is kept in a register (or folded) across those stores instead."""
    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        index = builder.add(builder.mul(args[1], context.get_constant(types.intp, 3)), args[2])
        value = builder.load(builder.gep(array.data, [index]))
        value.set_metadata("invariant.load", builder.module.add_metadata([]))
        return value
    return types.int64(lay, types.intp, types.intp), codegen


@jit_inline
def _shape(S, t):
    """Rows and columns of 2-D table ``t``: the columns from :data:`FIXED_COLUMNS` where fixed (a
    constant once ``t`` is), else from the layout."""
    columns = FIXED_COLUMNS[t]
    if columns == 0:
        columns = layout_field(S.lay, t, LAY_COLS)
    return layout_field(S.lay, t, LAY_ROWS), columns


@jit_inline
def _start(arena, lay, t, itemsize):
    """``void*`` to the first element of table ``t`` in ``arena``, the arena of its dtype, whose
    elements take ``itemsize`` bytes (a constant: ``arena.itemsize`` would be loaded at run time)."""
    return address_as_void_pointer(arena.ctypes.data + layout_field(lay, t, LAY_OFFSET) * itemsize)


@jit_inline
def itab(S, t):
    """2-D int64 table ``t`` (a ``T_*`` constant) as a view."""
    return numba.carray(_start(S.I, S.lay, t, 8), _shape(S, t), np.int64)


@jit_inline
def ivec(S, t):
    """1-D int64 table ``t`` as a view."""
    return numba.carray(_start(S.I, S.lay, t, 8), layout_field(S.lay, t, LAY_ROWS), np.int64)


@jit_inline
def ftab(S, t):
    """2-D float64 table ``t`` as a view."""
    return numba.carray(_start(S.F, S.lay, t, 8), _shape(S, t), np.float64)


@jit_inline
def fvec(S, t):
    """1-D float64 table ``t`` as a view."""
    return numba.carray(_start(S.F, S.lay, t, 8), layout_field(S.lay, t, LAY_ROWS), np.float64)


@jit_inline
def btab(S, t):
    """2-D uint8 table ``t`` as a view."""
    return numba.carray(_start(S.B, S.lay, t, 1), _shape(S, t), np.uint8)
