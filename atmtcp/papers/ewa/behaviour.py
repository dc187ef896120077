"""ewa's sentences about how its simulated TCP behaved, each a check on the headline runs
(:class:`atmtcp.tcp_settings.BehaviourCheck`; the settings they decide are in
:data:`atmtcp.papers.ewa.shared.scenario.TCP_SETTINGS`).

Sections 4.1 and 4.2 state, of the paper's own runs, how fast a window grows in congestion avoidance;
sections 1 and 3.1 say it of TCP in general. Each is measured on the headline runs and, under the other
reading of the settings they decide, on ``ewa.behaviour_sensitivity``.
"""
from __future__ import annotations

from ...tcp_settings import BehaviourCheck

APPROXIMATELY = 0.5
"""ewa's "approximately" a duration or a rate, as its claims read it: within a factor 1 +- 0.5 of the paper's
(of a range, from half its low end to 1.5 times its high end)."""
SENSITIVITY = "ewa.behaviour_sensitivity"
OTHER_READING = "4.4BSD-Lite (+mss/8, delayed ACKs)"


def _about(low: float, high: float | None = None):
    high = low if high is None else high
    return lambda value: (1 - APPROXIMATELY) * low <= value <= (1 + APPROXIMATELY) * high


def _ssthresh_512(ds):
    return ds.sel(ssthresh_kb=512)


def recovery_512k_s(data: dict) -> float:
    """Section 4.2 with ssthresh 512 KB: seconds after 15 s until L1 stays recovered (mean over seeds)."""
    return float(_ssthresh_512(data["ewa.ssthresh_study"]).recovery_s.isel(phase=-1).mean())


def growth_512k(data: dict) -> float:
    """The same runs: congestion-avoidance growth in segments per round trip (mean over seeds)."""
    return float(_ssthresh_512(data["ewa.ssthresh_study"]).growth_per_rtt.mean())


def underflow_15s_ms(data: dict) -> float:
    """Section 4.1: how long AAP-1's buffer empties after 15 s (ms, mean over seeds)."""
    return float(data["ewa.fig15"].underflow_ms.sel(phase="15-20 s").mean())


def _other(case: str, variable: str):
    """The other reading's mean over seeds of ``variable`` in ``case`` of :data:`SENSITIVITY`."""
    return lambda data: float(data[SENSITIVITY][variable].sel(tcp=OTHER_READING, case=case).mean())


CHECKS = [
    BehaviourCheck(
        "ca_growth_one_segment_per_rtt", "ewa 1, 3.1",
        '"they increase their window by approximately one segment every round-trip time" (3.1; 1: "at the '
        'rate of one segment per RTT")', ("increase", "delayed_ack"), "about 1", "segment per round trip",
        ("ewa.ssthresh_study",), growth_512k, _about(1.0),
        OTHER_READING, (SENSITIVITY,), _other("ssthresh 512 KB", "growth_per_rtt")),
    BehaviourCheck(
        "recovery_with_ssthresh_512k", "ewa 4.2",
        '"if the ssthresh variable was set to 512 Kbytes ... TCP would need approximately 20-30 seconds before '
        'it was able to achieve 100% utilization after time t = 15 seconds"', ("increase", "delayed_ack"),
        "20-30", "s", ("ewa.ssthresh_study",), recovery_512k_s, _about(20.0, 30.0),
        OTHER_READING, (SENSITIVITY,), _other("ssthresh 512 KB", "recovery_s")),
    BehaviourCheck(
        "window_increase_after_15s", "ewa 4.1",
        '"The window size for the two active connections must increase from approximately 40 Kbytes up to 85 '
        'Kbytes ... At the rate of one segment per RTT, this takes approximately 150 milliseconds, as can be '
        'verified from Figure 15"', (), "150", "ms (buffer empty after 15 s)",
        ("ewa.fig15",), underflow_15s_ms, _about(150.0),
        OTHER_READING, (SENSITIVITY,), _other("section 4.1", "underflow_ms")),
]
"""ewa's sentences about its TCP's behaviour, the general ones first. The first two decide the increase and the
ACKs (:data:`atmtcp.papers.ewa.shared.scenario.TCP_SETTINGS` gives the reasons); 4.1's 150 ms decides nothing: in
our runs EWA's window, not cwnd, limits the senders after 15 s, so it is the same under either reading."""
