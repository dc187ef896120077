"""Changes of a built :class:`~atmtcp.model.Run` that a study makes for a paper's other reading: each
connection's TCP fields, each host's timer phase, the switches' output port. The papers' studies
(``goyal1998.fba_study``, ``lakshman.buffer_study``) and the atlas share them."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from . import model as m


def with_tcp(run: m.Run, per_connection: Callable[[int, m.TcpConfig], dict]) -> m.Run:
    """``run`` with each connection's :class:`~atmtcp.model.TcpConfig` fields replaced by
    ``per_connection(i, tcp)``."""
    return replace(run, connections=tuple(replace(c, tcp=replace(c.tcp, **per_connection(i, c.tcp)))
                                          for i, c in enumerate(run.connections)))


def with_tick_phases(run: m.Run, seed: int, stream: int) -> m.Run:
    """``run`` with each host's timer ticking at its own phase (``TcpConfig.tick_phase_s``), drawn uniformly
    within one of its ticks from the seed sequence ``(seed, stream)``: a stream apart from the run's own
    draws, so that the phases change nothing else."""
    ticks = [c.tcp.granularity_s for c in run.connections]
    phases = np.random.default_rng([seed, stream]).uniform(0.0, ticks)
    return with_tcp(run, lambda i, tcp: {"tick_phase_s": float(phases[i])})


def with_switch_port(run: m.Run, port: m.PortConfig) -> m.Run:
    """``run`` with every switch output port of its network set to ``port``."""
    return replace(run, network=replace(run.network, switch_port=port))
