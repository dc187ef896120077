"""The one place where the kernel's numba options are set (stumpy's habit).

``cache=True`` keeps compiled machine code on disk, so only the first call after an edit
pays for compilation (43-45 s of CPU and 0.5 GB on the 2-core machine of 2026-11-29's ninth sitting,
where the kernel before :class:`_PlainArgumentsDispatcher` took 46-49 s and 110.8 s on the eighth sitting's
machine; see :func:`jit_inline`). numba notices a change only in a function's *own* file, not in the files
of the functions it calls, so a stale caller could keep running an old callee. The cache
therefore lives in a folder named by a hash of every kernel source file: any edit to the kernel
starts a fresh cache. ``fastmath`` stays off: the kernel
must give bit-identical results for identical inputs. ``ATMTCP_NO_CACHE=1`` disables the
cache (for debugging), and with it the ahead-of-time module (:mod:`atmtcp.kernel.entry`).

The cache follows the checkout (:class:`_CheckoutCacheLocator`): a copied or moved checkout, its
``__pycache__`` with it, loads the kernel from the cache instead of compiling it again.
"""
import copy
import os

import numba
from numba.core import caching as _caching, inline_closurecall as _icc, ir as _ir, types as _types
from numba.core.registry import CPUDispatcher

from .sources import CACHE_DIR, KERNEL_DIR

PACKAGE_DIR = KERNEL_DIR.parent


class _CheckoutCacheLocator(_caching.UserProvidedCacheLocator):
    """numba's locator for ``numba.config.CACHE_DIR``, but with the subfolder named by the source
    file's folder *within the package* (``kernel``), where numba names it by a hash of the folder's
    absolute path: so the cache of a moved or copied checkout is still found. This is as safe as
    numba's default locator, which keeps the cache in ``__pycache__`` beside the source and so moves
    with it too: numba 0.68 checks each source file by a hash of its contents (not its path, nor its
    time), its index keys hold the function's bytecode, signature and this CPU, and
    :data:`CACHE_DIR` is named by the hash of every kernel source. Only our functions (decorated by
    :func:`_njit`, under the package's folder) use it; any other numba code keeps numba's locators."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        relative = os.path.relpath(os.path.dirname(os.path.abspath(py_file)), PACKAGE_DIR)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, relative.replace(os.sep, "_"))

    @classmethod
    def from_function(cls, py_func, py_file):
        inside = os.path.abspath(py_file).startswith(str(PACKAGE_DIR) + os.sep)
        if numba.config.CACHE_DIR != str(CACHE_DIR) or not inside:
            return None
        return super().from_function(py_func, py_file)


if _CheckoutCacheLocator not in _caching.CacheImpl._locator_classes:
    _caching.CacheImpl._locator_classes.insert(0, _CheckoutCacheLocator)

USE_CACHE = os.environ.get("ATMTCP_NO_CACHE") is None


class _OneMemoPerScope:
    """Stands in for the :mod:`copy` module in numba's IR inliner, whose ``copy_ir`` deep-copies a
    callee's IR block by block, each with a memo of its own: every block's copy then copies the
    function's whole scope (every variable of it), so one copy costs blocks x variables, and a
    function that inlines much is copied in time quadratic in its size, at every call site. Here
    the consecutive blocks of one scope share one memo, so the scope is copied once per copy of
    the IR, as ``copy.deepcopy`` of the whole IR would: the same IR, in time linear in its size."""

    def __init__(self):
        self.reset()

    def reset(self):
        self._scope, self._memo = None, None

    def deepcopy(self, x, memo=None):
        if memo is not None or not isinstance(getattr(x, "scope", None), _ir.Scope):
            return copy.deepcopy(x, memo)
        if x.scope is not self._scope:
            self._scope, self._memo = x.scope, {}
        return copy.deepcopy(x, self._memo)

    def __getattr__(self, name):
        return getattr(copy, name)


def _share_scope_copies():
    """Make numba's inliner copy a callee's IR in linear time (:class:`_OneMemoPerScope`); a memo
    lives for one ``inline_ir`` call at most, so no copy outlives the IR it was made from."""
    if not isinstance(getattr(_icc, "copy", None), type(copy)) or not hasattr(_icc.InlineWorker, "inline_ir"):
        return  # another numba: leave its inliner as it is
    shim = _OneMemoPerScope()
    inline_ir = _icc.InlineWorker.inline_ir

    def inline_ir_sharing_scope_copies(self, *args, **kwargs):
        shim.reset()
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            shim.reset()

    _icc.copy = shim
    _icc.InlineWorker.inline_ir = inline_ir_sharing_scope_copies


_share_scope_copies()

JIT_OPTIONS = {"cache": USE_CACHE, "nogil": True, "boundscheck": False, "error_model": "numpy", "_nrt": False}
"""The kernel's numba options. ``_nrt=False`` compiles the kernel without numba's runtime: the kernel
allocates nothing (its tables are the arenas Python passes in and keeps alive for the whole run), so no
array needs a reference count. With the runtime, each call of a function that is not inlined took and
dropped a reference to each of the four arenas (``NRT_incref``/``NRT_decref``: out-of-line calls that
found a null pointer, since the arenas were views without a count). Without it, issue 39, 2026-11-29
(docs/speed.md, "The kernel without numba's runtime, on four pointers"): the 13 bench rows execute
12.5 % fewer instructions, and the slotted LAN kernel takes 0.140 s where it took 0.174 s."""


class _PlainArgumentsDispatcher(CPUDispatcher):
    """numba's dispatcher, but a call from compiled code is typed with its constant arguments as plain
    values (``int64``, not ``Literal[int](0)``). numba compiles a function once per signature, and a
    constant argument is a signature of its own: ``channel_push(..., -1, k, -1)`` and every other constant
    passed would compile the function, and each function it passes the constant on to, again, for
    nothing that LLVM does not find by itself once it inlines the function (:func:`jit_inline`)."""

    def get_call_template(self, args, kws):
        return super().get_call_template([_types.unliteral(a) for a in args],
                                         {k: _types.unliteral(a) for k, a in kws.items()})


def _njit(function, **options):
    # numba picks a function's cache folder when it is decorated, from numba.config.CACHE_DIR;
    # set it for our functions only, so that other numba code in the process is not affected.
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(CACHE_DIR)
    try:
        dispatcher = numba.njit(**options, **JIT_OPTIONS)(function)
    finally:
        numba.config.CACHE_DIR = previous
    if type(dispatcher) is CPUDispatcher and not options.get("inline"):
        dispatcher.__class__ = _PlainArgumentsDispatcher
    return dispatcher


def jit(function):
    """Compile ``function`` with the kernel's numba options."""
    return _njit(function)


def jit_inline(function):
    """Like :func:`jit`, and inlined into its callers by LLVM: numba's ``forceinline`` marks it
    ``alwaysinline``, numba compiles it once per signature, and LLVM copies the optimized function into
    every caller.

    For the functions of the per-cell path: a call would copy its arguments by value, which costs more
    than the function's own work. numba's own inlining (``inline="always"``, :func:`jit_inline_ir`)
    runs numba's front end, type inference and lowering on the callee again at every call site; for the
    cell path, inlined at several places of ``run_until_end``, that was most of the first compile. Issue
    39, 2026-11-29, a cold ``atmtcp warm --no-aot`` beside the kernel before: 111.9 s of CPU and 0.55 GB,
    against 379.6 s and 2.25 GB; the instructions of the 13 bench rows 1.0 % fewer in sum, each row
    between -14.7 % and +4.2 % (docs/speed.md)."""
    return _njit(function, forceinline=True)


def jit_inline_ir(function):
    """Like :func:`jit`, and inlined into its callers at numba-IR level (``inline="always"``).

    For the small leaf functions of the hot loop that call no other kernel function: the event heap
    (:mod:`atmtcp.kernel.heap`), the random stream (:mod:`atmtcp.kernel.rng`), ring offsets, a cell's
    packing and a record's allocation. With the heap inlined by LLVM instead (:func:`jit_inline`), the
    kernel executed 9-18 % more instructions on three bench rows (issue 39, 2026-11-29: the 5-source
    LAN 1.94 G against 1.78 G); with these inlined by numba, no row but one (+4.2 %) executes more
    than 1.3 % more than the kernel inlined wholly by numba (docs/speed.md). Their IR is small, so
    copying it costs the compile little."""
    return _njit(function, inline="always")
