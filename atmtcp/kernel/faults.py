"""Faults: a kernel state that no model builds stops the run with a ``ValueError`` naming what was wrong.

Three checks raise one: a port whose drop policy code has no branch
(:func:`atmtcp.kernel.policies.decide`), a NIC that is not a tail-drop FIFO with room for the packet
(:func:`atmtcp.kernel.ports.transmit_cells`), and a connection whose recovery code has no fast recovery
(:mod:`atmtcp.kernel.tcp_recovery`). Each raises its message alone, a constant, after
:func:`keep_fault_args` has put the numbers it names (a port, a code, a queue) in the global table
(``G_FAULT_NARGS``, ``G_FAULT_ARG0`` to ``G_FAULT_ARG2``); the kernel's entry
(:func:`atmtcp.kernel.entry.with_fault_args`) appends them to the error's arguments, so the caller sees
``ValueError(message, port, code)`` from the JIT and from the ahead-of-time module alike.

Why not ``raise ValueError(message, p, code)`` in the kernel: numba (0.68) compiles an exception with
run-time arguments into a function that boxes them (``__excinfo_unwrap_args<hash>``), and in an
ahead-of-time module linked from numba's cache (``atmtcp warm`` when the cache is already there: a
rebuilt or removed module, a second wheel build) that function crashes the process (a segfault in
``PyErr_SetObject``; reproduced with a 10-line ``@njit(cache=True)`` function and ``numba.pycc``,
NOTES.md). An exception of constants is a pickled constant and works in every build.
``tests/kernel/test_fault_arguments.py`` checks that no kernel function raises with run-time arguments.
"""
from .jit import jit_inline_ir
from .layout import G_FAULT_ARG0, G_FAULT_ARG1, G_FAULT_ARG2, G_FAULT_NARGS
from .state import ivec, T_G

FAULT_ARGS = 3
"""The most numbers a fault names (``G_FAULT_ARG0`` to ``G_FAULT_ARG2``)."""


@jit_inline_ir
def keep_fault_args(S, n, a, b, c):
    """Keep the first ``n`` of ``a``, ``b``, ``c`` (at most :data:`FAULT_ARGS`) for the error about to be
    raised."""
    g = ivec(S, T_G)
    g[G_FAULT_NARGS] = n
    g[G_FAULT_ARG0] = a
    g[G_FAULT_ARG1] = b
    g[G_FAULT_ARG2] = c
