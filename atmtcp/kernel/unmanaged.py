"""Views of the kernel's arenas that numba does not reference-count.

Numba increments and decrements (atomically) an array's reference count each time it is
passed to a function or read from a tuple. Arrays built by ``numba.carray`` over a raw
pointer carry no reference count, so those operations become null checks. The owning
numpy arrays stay alive in the caller for the whole run, which makes the views safe.
"""
import numba

from .jit import jit
from .state import KernelState, address_as_void_pointer


@jit
def unmanaged(a):
    """A view of C-contiguous array ``a`` without a reference count."""
    return numba.carray(address_as_void_pointer(a.ctypes.data), a.shape, a.dtype)


@jit
def unmanaged_state(S):
    """The arenas as unmanaged views (same memory)."""
    return KernelState(unmanaged(S.I), unmanaged(S.F), unmanaged(S.B), unmanaged(S.lay))
