"""ewa section 3.1's Fig. 13: N connections in congestion avoidance with alpha fixed at 1, under the linear
feedback (eq. 3.3) and the logarithmic one (eq. 3.4), on section 4.4's network
(:class:`atmtcp.papers.ewa.section4.scenario.EwaScenario`)."""
from __future__ import annotations

from .... import model as m
from ..section4.scenario import EwaScenario, ewa_run
from ..shared.scenario import KB, MSS

OVERCORRECTION = EwaScenario(
    "overcorrection", "N connections in congestion avoidance, alpha = 1 fixed (section 3.1)",
    ip_delays_s=(5e-3,) * 40, atm_delay_s=5e-3, buffer_bytes=390 * KB, rcv_wnd=390 * KB,
    initial_ssthresh=2 * MSS, phases=(("1-5 s", 1.0, 5.0),), duration_s=5.0)
"""ewa 3.1: "consider an example where N TCP sessions with equal round-trip times are active, with all
of them in the congestion avoidance phase. Let the parameter alpha be 1"; "With larger feedback delays,
however, especially when all the connections are in the congestion avoidance phase, such a function
may cause substantial over-correction". The paper gives no network: we take section 4.4's (IP and ATM
5 ms, a 10 ms feedback loop, 390 KB), N = 40 (and 10), an initial ssthresh of 2 segments so that
every connection is in congestion avoidance from its first round trip, 5 s, alpha fixed at 1."""
OVERCORRECTION_SOURCES = (10, 40)
FEEDBACKS = ("linear", "log")


def overcorrection_run(feedback: str, n: int, seed: int) -> m.Run:
    """Fig. 13: ``n`` connections of :data:`OVERCORRECTION`, alpha fixed at 1, linear or logarithmic f."""
    return ewa_run(OVERCORRECTION, seed, feedback=feedback, adaptive=False, n=n)
