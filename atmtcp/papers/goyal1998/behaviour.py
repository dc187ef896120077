"""goyal1998's sentence about how its simulated SACK TCP lost throughput in the LAN, as a check
(:class:`atmtcp.tcp_settings.BehaviourCheck`) on ``goyal1998.sack_lan_mechanism`` (the LAN cells of Tables 4
and 6, every transmission traced for its first 2 s).

goyal1998 states its TCP's settings (sections 2, 3.1, 5.1, 5.4), so the sentence decides none. Of 5.4's details
only PIPE's start is a setting (5.4.1's CWND, the tables', against 5.4.2's CWND - 3): the check reads the
tables' start and, as the other reading, 5.4.2's. The order of retransmissions before new data and PIPE's
decrement by two at a partial ACK are 5.4.1's as written in both (:mod:`atmtcp.kernel.tcp_recovery`).
"""
from __future__ import annotations

from ...tcp_settings import BehaviourCheck

STUDY = "goyal1998.sack_lan_mechanism"
TABLES_READING, OTHER_READING = "SACK (5.4.1)", "SACK (5.4.2)"


def drop_ratio(reading: str):
    """Of the study's runs under ``reading``: the share of retransmissions in recovery that lost a cell at the
    bottleneck over the share of first transmissions that did (1: lost as often)."""
    def measure(data: dict) -> float:
        ds = data[STUDY].sel(reading=reading)
        retransmitted = float(ds.after_fast_retransmit_dropped.sum()) / float(ds.after_fast_retransmit_sent.sum())
        first = float(ds.first_dropped.sum()) / float(ds.first_sent.sum())
        return retransmitted / first if first else float("nan")
    return measure


CHECKS = [
    BehaviourCheck(
        "sack_lan_retransmissions_lost", "goyal1998 5.4.3",
        '"the degraded performance of SACK over Reno in LANs ... is attributed to excessive timeout due to the '
        'retransmitted packets being lost"', (), "at least 1 (retransmissions lost at least as often as first "
        "transmissions)", "drop share of recovery retransmissions over that of first transmissions", (STUDY,),
        drop_ratio(TABLES_READING), lambda ratio: ratio >= 1.0, OTHER_READING, (STUDY,), drop_ratio(OTHER_READING)),
]
"""goyal1998's sentence on SACK's LAN losses (it decides no setting: goyal1998 states them)."""
