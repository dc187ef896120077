"""A kernel call that Ctrl-C stops within a fraction of a second, and the estimate of a long run.

The kernel (:func:`atmtcp.kernel.engine.run_until_end`) is machine code that releases the GIL (numba's
``nogil``; the ahead-of-time module's ``run`` likewise): while it runs in the calling thread, Python
cannot run its SIGINT handler, so Ctrl-C would wait for the end of the run. :func:`call_kernel`
therefore runs it in a worker thread and waits in the calling thread, which receives the
``KeyboardInterrupt``. To stop the worker it writes :data:`CANCELLED` into the kernel's status word
``g[G_STATUS]``, which the kernel's main loop reads before every event, the same place where it stops
when a resource runs low: the kernel returns between two events, and the run is abandoned.

While it waits, the calling thread also watches the simulated clock ``g[G_NOW]``: a run that, after
:data:`CALIBRATION_S` seconds of simulating, will take more than :data:`LONG_RUN_S` in all is announced
on stderr with its expected wall time (a calibration on the run itself, so the estimate holds for any
scenario).
"""
from __future__ import annotations

import sys
import threading
import time

from .kernel import layout as L

_interrupt_requested = False


def interrupt(signum=None, frame=None):
    """A signal handler that stops the command as Ctrl-C does: it raises ``KeyboardInterrupt``, and first
    remembers that it was asked to, because Python swallows an exception raised while a finalizer or a
    weakref callback runs (it only prints "Exception ignored in ..."): :func:`raise_if_interrupted` raises
    it again at the next point of an experiment (a SIGTERM that came during a garbage collection once let an
    experiment run to its end and write its file)."""
    global _interrupt_requested
    _interrupt_requested = True
    if not getattr(sys.unraisablehook, "quiet_about_interrupts", False):
        sys.unraisablehook = _quiet_about_interrupts(sys.unraisablehook)
    raise KeyboardInterrupt


def _quiet_about_interrupts(previous):
    """``sys.unraisablehook`` that says nothing of a swallowed ``KeyboardInterrupt`` (Python would print its
    traceback as "Exception ignored in ..."; :func:`raise_if_interrupted` raises it again) and hands every other
    unraisable exception to ``previous``."""
    def hook(unraisable):
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous(unraisable)
    hook.quiet_about_interrupts = True
    return hook


def raise_if_interrupted() -> None:
    """Raise ``KeyboardInterrupt`` if :func:`interrupt` ran since :func:`forget_interrupt` (its own raise
    may have been swallowed)."""
    if _interrupt_requested:
        raise KeyboardInterrupt


def forget_interrupt() -> None:
    """Start a command with no interrupt requested."""
    global _interrupt_requested
    _interrupt_requested = False


CANCELLED = 1 << 40
"""The status :func:`call_kernel` writes to stop a running kernel: no bit the kernel itself sets."""
POLL_S = 0.1
"""How often the waiting thread wakes up (to watch the clock; a signal wakes it at once)."""
CALIBRATION_S = 2.0
"""Seconds of simulation after which a run's total wall time is estimated."""
LONG_RUN_S = 60.0
"""A run estimated to take longer than this (wall seconds) is announced on stderr."""
STOP_WAIT_S = 2.0
"""How long an interrupted call waits for the kernel to return before it gives up on it (a kernel
still being compiled by numba cannot be stopped; its thread is left to finish in the background)."""

estimates = True
"""Whether long runs are announced (:func:`quiet`: off inside an experiment, which shows its own ETA)."""


class quiet:
    """Context manager: no estimate of a long run inside it (an experiment's points)."""

    def __enter__(self):
        global estimates
        self.previous, estimates = estimates, False

    def __exit__(self, *exc):
        global estimates
        estimates = self.previous


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (or SIGTERM where the command line maps it to Ctrl-C); its message says
    how far the run had come."""


class Estimate:
    """Announces, once, a run that will take more than :data:`LONG_RUN_S` of wall time."""

    def __init__(self, g):
        self.g, self.since, self.done = g, None, not estimates

    def check(self) -> None:
        """Once the kernel has simulated for :data:`CALIBRATION_S` of wall time, extrapolate the run's wall
        time and print it if above :data:`LONG_RUN_S`; each later call does nothing."""
        if self.done:
            return
        now, end = int(self.g[L.G_NOW]), int(self.g[L.G_END])
        if self.since is None:
            if self.g[L.G_EVENTS] > 0:  # simulating (not compiling): start the clock
                self.since, self.start_ns = time.monotonic(), now
            return
        elapsed = time.monotonic() - self.since
        if elapsed < CALIBRATION_S or now <= self.start_ns or end <= 0:
            return
        self.done = True
        total = elapsed * (end - self.start_ns) / (now - self.start_ns)
        if total > LONG_RUN_S:
            print(f"atmtcp: this run will take about {_duration(total)} of wall time ({now / 1e9:.3g} of "
                  f"{end / 1e9:g} simulated s in the first {elapsed:.0f} s); Ctrl-C stops it",
                  file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def call_kernel(entry, compiled, estimate: Estimate | None = None) -> int:
    """``entry(compiled.kernel_state)``'s status, computed in a worker thread so that Ctrl-C stops it
    (:class:`Interrupted`, raised here) within a fraction of a second; ``estimate`` (one per run, over
    its calls) is checked while it waits. Outside the main thread, where no signal arrives, the kernel
    runs in the calling thread."""
    if threading.current_thread() is not threading.main_thread():
        return int(entry(compiled.kernel_state))
    outcome = {}

    def work():
        try:
            outcome["status"] = int(entry(compiled.kernel_state))
        except BaseException as error:  # handed to the calling thread
            outcome["error"] = error

    worker = threading.Thread(target=work, name="atmtcp-kernel", daemon=True)
    g = compiled.state.g
    estimate = estimate or Estimate(g)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(POLL_S)
            estimate.check()
    except KeyboardInterrupt:
        stop(g, worker)
        raise Interrupted(f"run stopped at {int(g[L.G_NOW]) / 1e9:g} of {int(g[L.G_END]) / 1e9:g} "
                          "simulated s") from None
    if "error" in outcome:
        raise outcome["error"]
    return outcome["status"]


def stop(g, worker: threading.Thread) -> None:
    """Make the kernel running in ``worker`` return: :data:`CANCELLED` in its status word, written
    again until it returns (the kernel's own ``|=`` of a *_LOW bit may overwrite one write; it then
    returns anyway), for at most :data:`STOP_WAIT_S`."""
    deadline = time.monotonic() + STOP_WAIT_S
    while worker.is_alive() and time.monotonic() < deadline:
        g[L.G_STATUS] = CANCELLED
        try:
            worker.join(0.02)
        except KeyboardInterrupt:  # a second Ctrl-C: stop waiting
            return
