"""The kernel's one random stream: SplitMix64 over a 64-bit state kept in ``g[G_RNG]``.

Every random choice of a run (randomized tail drop, the order of a slot's arrivals, cell
delay variation, RED's drops, ON and OFF periods) draws from this stream, in the order the events happen, so a run is a
function of its parameters and ``Run.seed`` alone: the same seed gives bit-identical
results, and no global generator (numpy's or numba's) is touched. SplitMix64 (Steele,
Lea and Flood, 2014; the seeding generator of Java's SplittableRandom and of
xoshiro) passes BigCrush and needs one add and two multiplies per draw.
"""
import numpy as np

from .jit import jit_inline_ir
from .layout import G_RNG
from .state import ivec, T_G

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@jit_inline_ir
def random_u64(S):
    """The next 64 random bits of the run's stream."""
    g = ivec(S, T_G)
    z = np.uint64(g[G_RNG]) + _GOLDEN
    g[G_RNG] = np.int64(z)
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@jit_inline_ir
def random_below(S, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n`` (modulo bias below n / 2**64)."""
    return np.int64(random_u64(S) % np.uint64(n))


@jit_inline_ir
def random_unit(S):
    """A uniform float in ``[0, 1)`` with 53 random bits (probabilities down to 1e-16 count)."""
    return np.float64(random_u64(S) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit_inline_ir
def random_duration_ns(S, mean_ns):
    """An exponentially distributed duration with mean ``mean_ns`` (ns, at least 1): an ON or OFF
    period (ewa 4.5 and 4.6: "the duration of the ON and OFF periods is exponentially
    distributed"), by inversion of one uniform draw."""
    return max(np.int64(1), np.int64(-mean_ns * np.log(1.0 - random_unit(S))))


def splitmix64_reference(state: int, count: int) -> list[int]:
    """Pure-Python SplitMix64, for the tests: ``count`` outputs from ``state``."""
    mask = (1 << 64) - 1
    out = []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out
