"""Kernel functions called from a test as the kernel itself calls them: on the four arenas' data pointers
(:func:`atmtcp.kernel.state.arena_pointers`), not on a :class:`~atmtcp.kernel.tables.KernelState` of arrays.

numba compiles a function once per signature. ``atmtcp warm`` compiles (and caches) every kernel function for
the pointers that ``run_until_end`` passes on; called from Python with the arrays, each would be compiled again
for them (20 s of the kernel tests' wall time on 2 cores, measured from a fresh clone). A wrapper made here
takes the arrays, takes their pointers, and calls the function with them, so the function comes from numba's
cache; only the small wrapper is compiled.
"""
import functools

import numba

from atmtcp.kernel.state import arena_pointers


def on_pointers(*functions):
    """Each of ``functions`` (kernel functions whose first argument is the state) as a function taking a
    :class:`~atmtcp.kernel.tables.KernelState` of arrays; one function for one, a tuple for several. A
    function that numba inlines at IR level (``jit_inline_ir``) is returned as it is: the kernel never
    compiles it alone, so no cached copy is missed, and numba cannot inline it into the wrapper's ``*args``."""
    wrapped = tuple(_on_pointers(function) for function in functions)
    return wrapped[0] if len(wrapped) == 1 else wrapped


@functools.lru_cache(maxsize=None)
def _on_pointers(function):
    if function.targetoptions.get("inline") == "always":
        return function

    @numba.njit
    def call(state, *args):
        return function(arena_pointers(state), *args)
    return call
