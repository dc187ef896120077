"""The kernel's views of its tables (:mod:`atmtcp.kernel.tables`).

Kernel functions take views of the tables they use with :func:`itab`, :func:`ivec`,
:func:`ftab`, :func:`fvec` and :func:`btab`; the views share memory with the arenas of
:class:`~atmtcp.kernel.tables.KernelState`; the kernel's functions pass each other the arenas' data
pointers (:func:`arena_pointers`), and a view takes either. The ``T_*`` table numbers are re-exported here for
the kernel's modules.
"""
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .tables import (  # noqa: F401 (re-exported: the kernel's modules take T_* from here)
    FIXED_COLUMNS, LAY_COLS, LAY_OFFSET, LAY_ROWS, TABLES, Extended, KernelState, SimState, Zeros, pack,
    T_G, T_CONN, T_CONNF, T_RSACK, T_SB, T_RB, T_VC, T_VC_PORT, T_VC_CHAN, T_VC_DELAY, T_PORT, T_PORTF,
    T_VC_PV, T_PV_VC, T_PV_COUNT, T_PV_STATE, T_PV_FRONT, T_RING_PV, T_RING_T, T_RING_CELL, T_PEND, T_CHAN,
    T_CELL, T_PKT, T_H_TIME, T_H_SEQ, T_H_KIND, T_H_ID, T_TRACE_T, T_TRACE_I, T_TRACE_V, T_DROPLOG, T_QSAMPLE,
    T_OSAMPLE, T_LOSS, T_APP, T_FLOW, T_FLOW_RPORT, T_FLOW_RQ, T_RPORT, T_RQ, T_RQF, T_RQ_RING, T_RSAMPLE,
    T_RFSAMPLE, T_SEG_RTO,
)


@intrinsic
def arena_pointers(typingctx, S):
    """The data pointers of the four arenas of a :class:`KernelState` (``I``, ``F``, ``B``, ``lay``), as
    a tuple of typed pointers that the views (:func:`itab` ...) take in place of the state.

    numba passes an argument that is a tuple of arrays to a function it does not inline as every
    member of every array: 30 machine words for the four arenas, most of them on the stack, at each
    call. The views need only the data pointers: 4 words, in registers. :func:`~atmtcp.kernel.engine.
    run_until_end` takes them once and passes them on. Issue 39, 2026-11-29 (docs/speed.md, "The kernel
    without numba's runtime, on four pointers"): the slotted LAN kernel 0.125 s where it took 0.140 s on
    the arrays, the deterministic one 0.100 s where it took 0.113 s."""
    pointer_types = tuple(types.CPointer(S.types[i].dtype) for i in range(len(KernelState._fields)))
    thin = types.Tuple(pointer_types)

    def codegen(context, builder, signature, args):
        (state,) = args
        out = ir.Constant(context.get_value_type(thin), ir.Undefined)
        for i, arena_type in enumerate(signature.args[0].types):
            array = context.make_array(arena_type)(context, builder, builder.extract_value(state, i))
            out = builder.insert_value(out, array.data, i)
        return out
    return thin(S), codegen


def _data_pointer(context, builder, state, index, arena_type):
    """The data pointer of arena ``index`` of ``state``: a state of arrays, or of
    :func:`arena_pointers`."""
    member = builder.extract_value(state, index)
    if isinstance(arena_type, types.CPointer):
        return member
    return context.make_array(arena_type)(context, builder, member).data


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


_LAY = KernelState._fields.index("lay")


def _arena_view(arena, ndim):
    """An intrinsic ``view(S, t)``: table ``t`` (a ``T_*`` constant) of the arena ``S.<arena>`` (a field
    of :class:`KernelState`, or its data pointer in :func:`arena_pointers`) as a C-contiguous ``ndim``-D array of the arena's dtype sharing its memory,
    without a reference count (as ``numba.carray`` over its address), emitted in place at each call site.

    - The table's first element, rows and (where the run decides them) columns are read from the
      layout table ``S.lay`` with LLVM's ``!invariant.load``. The kernel never writes its layout, but
      LLVM cannot tell it from the arenas (all int64 memory): an ordinary load would be repeated after
      every store into an arena, at each view. An invariant load is kept in a register or folded.
    - A table with :data:`FIXED_COLUMNS` gets its column count as a constant, so that a row's address
      is a constant multiple of its index.
    - As an intrinsic, a view is LLVM IR written straight into the caller: numba compiles no function
      for it and inlines no IR (issue 39: inlined by numba, as they were until 2026-11-29, the views
      went through numba's front end again at each of their 307 call sites)."""
    field_index = KernelState._fields.index(arena)

    @intrinsic(prefer_literal=True)
    def view(typingctx, S, t):
        if not isinstance(t, types.Integer):
            return None
        table = getattr(t, "literal_value", None)
        arena_type, lay_type = S.types[field_index], S.types[_LAY]
        element = arena_type.dtype
        view_type = types.Array(element, ndim, "C")

        def codegen(context, builder, signature, args):
            state, number = args
            data = _data_pointer(context, builder, state, field_index, arena_type)
            lay_data = _data_pointer(context, builder, state, _LAY, lay_type)
            if table is None:
                number = context.cast(builder, number, signature.args[1], types.intp)
            else:
                number = context.get_constant(types.intp, table)

            def field(column):
                index = builder.add(builder.mul(number, context.get_constant(types.intp, 3)),
                                    context.get_constant(types.intp, column))
                value = builder.load(builder.gep(lay_data, [index]))
                value.set_metadata("invariant.load", builder.module.add_metadata([]))
                return value

            itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(element)))
            rows = field(LAY_ROWS)
            if ndim == 1:
                shape, strides = [rows], [itemsize]
            else:
                fixed = FIXED_COLUMNS[table] if table is not None else 0
                columns = context.get_constant(types.intp, fixed) if fixed else field(LAY_COLS)
                shape, strides = [rows, columns], [builder.mul(columns, itemsize), itemsize]
            out = context.make_array(view_type)(context, builder)
            context.populate_array(out, data=builder.gep(data, [field(LAY_OFFSET)]), shape=shape,
                                   strides=strides, itemsize=itemsize, meminfo=None)
            return out._getvalue()
        return view_type(S, t), codegen
    return view


itab = _arena_view("I", 2)
"""2-D int64 table ``t`` (a ``T_*`` constant) as a view: ``itab(S, T_CONN)``."""
ivec = _arena_view("I", 1)
"""1-D int64 table ``t`` as a view."""
ftab = _arena_view("F", 2)
"""2-D float64 table ``t`` as a view."""
fvec = _arena_view("F", 1)
"""1-D float64 table ``t`` as a view."""
btab = _arena_view("B", 2)
"""2-D uint8 table ``t`` as a view."""
