"""cheon's sentence about how its simulated TCP recovered from losses, as a check on the headline runs
(:class:`atmtcp.tcp_settings.BehaviourCheck`).

cheon states its TCP's settings (section 4; :data:`atmtcp.papers.cheon.scenario.TCP_SETTINGS`), so the
sentence decides none of them: it is measured to see whether our TCP behaves as the paper says its did.
"""
from __future__ import annotations

from ...tcp_settings import BehaviourCheck

FEW = (1.0, 5.0)
""""activated a few times ... and finally timeout occurs": between one and five fast retransmits per timeout
(chosen before any run)."""
POLICIES = ("rcd", "ppd", "epd")
"""Figs. 8-10's policies (Fig. 11 is ESPD, which the paper describes apart: it triggers timeouts on purpose)."""


def fast_retransmits_per_timeout(data: dict) -> float:
    """Table 1's runs (Figs. 8-11's case: symmetric, 500-byte packets) under RCD, PPD and EPD, every seed:
    fast retransmits over timeouts."""
    ds = data["cheon.table1"].sel(policy=list(POLICIES))
    timeouts = float(ds.timeouts.sum())
    return float(ds.fast_retransmits.sum()) / timeouts if timeouts else float("inf")


CHECKS = [
    BehaviourCheck(
        "few_fast_retransmits_then_a_timeout", "cheon 4.1.2 (Figs. 8-11)",
        '"Whenever the network congestion occurs, the fast retransmission algorithm is activated a few times, '
        'and finally timeout occurs when fast retransmission cannot fully recover the lost packets"', (),
        f"{FEW[0]:g}-{FEW[1]:g} (a few)", "fast retransmits per timeout", ("cheon.table1",),
        fast_retransmits_per_timeout, lambda ratio: FEW[0] <= ratio <= FEW[1]),
]
"""cheon's sentence on its TCP's recovery (it decides no setting: cheon states them)."""
