"""The numba discrete-event kernel. It knows no paper: it simulates a network described by
the arrays of :class:`atmtcp.kernel.state.SimState` (built by :mod:`atmtcp.compiler`)."""
from .engine import run_until_end
from .state import KernelState, SimState, pack

__all__ = ["run_until_end", "KernelState", "SimState", "pack"]
