"""The equilibrium of EWA's feedback loop (ewa 3.1, eq. 3.2), solved numerically: a check the paper
does not make, against the simulated steady-state queue.

ewa 3.1: "assuming that a known number of N connections are active and that all the connections have
equal round-trip times, the system converges to a state that satisfies the following equation

    Q_i(t) = f(B - N Q_i(t)),                                                   (3.2)

where Q_i(t) is the amount of buffer occupied by connection i, which is also equal to the feedback
given to that connection". Taken as written, each connection's window (the feedback) is all in the
buffer: the total queue is ``Q = N Q_i`` with ``Q_i = f(B - Q)``.

A window also fills the round-trip pipe, ``P`` packets at L1's rate, before any of it waits in AAP-1:
with every connection window-limited, ``N W = P + Q``, so ``N f(B - Q) = P + Q``. TCP sends whole
segments, so a window of ``f`` packets has ``floor(f)`` in flight: ``N floor(f(B - Q)) = P + Q``.
Each left side falls and each right side grows with Q, so one bisection finds each root; the floor
version's root is where its step function crosses (the queue then sits within a packet of it).
"""
from __future__ import annotations

import numpy as np


def feedback(kind: str, alpha: float, free: float) -> float:
    """f(B_e) in packets, as :func:`atmtcp.kernel.ewa.feedback_packets` (eq. 3.3 or 3.4)."""
    if kind == "linear":
        return alpha * free
    return alpha * np.log2(free) if free > 1 else 0.0


def _bisect(excess, low: float, high: float, steps: int = 200) -> float:
    """The point in [low, high] where the non-increasing ``excess`` changes sign."""
    for _ in range(steps):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def queue_as_written(n: int, alpha: float, buffer: float, kind: str = "log") -> float:
    """Eq. 3.2 as the paper writes it: the total queue ``Q = N Q_i`` with ``Q_i = f(B - N Q_i)``."""
    return _bisect(lambda q: n * feedback(kind, alpha, buffer - q) - q, 0.0, buffer)


def queue_with_pipe(n: int, alpha: float, buffer: float, pipe: float, kind: str = "log",
                    whole_segments: bool = False) -> float:
    """The total queue with the pipe counted: ``N f(B - Q) = P + Q``, or with ``floor(f)`` segments in
    flight per window (``whole_segments``). 0 if the windows cannot fill the pipe (the buffer then
    empties: the equilibrium is at its boundary)."""
    window = (lambda free: np.floor(feedback(kind, alpha, free))) if whole_segments else \
        (lambda free: feedback(kind, alpha, free))
    excess = lambda q: n * window(buffer - q) - pipe - q  # noqa: E731
    if excess(0.0) <= 0:
        return 0.0
    return _bisect(excess, 0.0, buffer)
