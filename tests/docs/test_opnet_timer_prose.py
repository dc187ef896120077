"""The prose of the OPNET timer studies (issue 36) against the tracked full runs, as
``test_notebook_prose.py`` does for the rest of the notebooks (its helpers, read from ``figures/``)."""
from __future__ import annotations

import math

from test_notebook_prose import check, checks, read

PHASES = ("0-10 s", "10-15 s", "15-20 s")
HEADLINE, PER_SEGMENT = "headline", "per-segment timers (OPNET 2.4)"
BSD, BSD_PER_SEGMENT = "4.4BSD-Lite's increase and ACKs", "4.4BSD-Lite's increase and ACKs, per-segment timers"


def test_ewa_opnet_timer_study():
    """ewa.ipynb, "What we find" of `ewa.opnet_timer_study`: "Under the headline TCP they rise from 10.2 to 288 per
    run with Drop-Tail, from 18 to 589 with Drop-from-Front, and from 83 to 1108 and from 152 to 1646 with RED 0.02
    and 0.05 ... Drop-Tail carries 0.991, 0.996 and 0.991 (the headline 0.980, 1.000 and 0.993 ...), and no
    policy's phase moves by more than 1.5 points. ... (1.02 packets lost per hit under Drop-Tail)". "Under
    4.4BSD's increase and delayed ACKs (...: 2.65 packets lost per hit and 170 timeouts per run under Drop-Tail),
    the timers multiply the timeouts 23-fold (3858 per run) and move Drop-Tail to 0.898, 0.775 and 0.969, from
    0.847, 0.773 and 0.959 ... RED 0.02's last phase rises too, to 0.645 from 0.502, but in one seed one of its
    two connections carries nothing in the last phase (the infinite share ratio)." Reads
    ``ewa/ewa.opnet_timer_study.csv``."""
    table = read("ewa/ewa.opnet_timer_study.csv").set_index(["policy", "quantity"])
    timeouts = {"drop_tail": ("10.2", "288"), "drop_from_front": ("18", "589"), "red_0.02": ("83", "1108"),
                "red_0.05": ("152", "1646")}
    for policy, (headline, per_segment) in timeouts.items():
        check(table.loc[(policy, "timeouts"), HEADLINE], headline, policy)
        check(table.loc[(policy, "timeouts"), PER_SEGMENT], per_segment, policy)
    utilization = [("drop_tail", f"utilization {p}") for p in PHASES]
    checks(table.loc[utilization, PER_SEGMENT], "0.991, 0.996, 0.991", "Drop-Tail, per-segment timers")
    checks(table.loc[utilization, HEADLINE], "0.980, 1.000, 0.993", "Drop-Tail, headline")
    for policy in timeouts:
        for phase in PHASES:
            row = table.loc[(policy, f"utilization {phase}")]
            assert abs(row[PER_SEGMENT] - row[HEADLINE]) <= 0.015, (policy, phase)
    check(table.loc[("drop_tail", "drops per hit"), HEADLINE], "1.02")
    check(table.loc[("drop_tail", "drops per hit"), BSD], "2.65")
    check(table.loc[("drop_tail", "timeouts"), BSD], "170")
    check(table.loc[("drop_tail", "timeouts"), BSD_PER_SEGMENT], "3858")
    check(table.loc[("drop_tail", "timeouts"), BSD_PER_SEGMENT] / table.loc[("drop_tail", "timeouts"), BSD], "23")
    checks(table.loc[utilization, BSD_PER_SEGMENT], "0.898, 0.775, 0.969", "Drop-Tail, BSD, per-segment timers")
    checks(table.loc[utilization, BSD], "0.847, 0.773, 0.959", "Drop-Tail, BSD")
    check(table.loc[("red_0.02", "utilization 15-20 s"), BSD_PER_SEGMENT], "0.645")
    check(table.loc[("red_0.02", "utilization 15-20 s"), BSD], "0.502")
    assert math.isinf(table.loc[("red_0.02", "share ratio 15-20 s"), BSD_PER_SEGMENT])


def test_cheon_opnet_timer_study():
    """cheon.ipynb, "What we find" of `cheon.opnet_timer_study`: "Per-segment timers multiply the timeouts in every
    table: in Table 1 from 64-90 per run to 2881-4052. ... RCD from 37,173 to 47,273 packets, the paper 33,999 ...
    ESPD ... from 73,696 to 68,337, the paper 58,999: ESPD's gain over RCD falls from +98.3 % to +44.6 % (the paper
    +73.5 %), EPD's from +51.6 % to +26.3 % (the paper +55.8 %). Fairness falls with them (Table 1's RCD from
    0.993 to 0.612)." Reads ``cheon/cheon.opnet_timer_study.csv``."""
    table = read("cheon/cheon.opnet_timer_study.csv", thousands=",").set_index(["table", "policy", "retransmission timers"])
    one, per = "one per session (cheon 2)", "per segment (OPNET 2.4)"
    for target in ("table1", "table2", "table3", "table4"):
        for policy in ("RCD", "PPD", "EPD", "ESPD"):
            assert table.loc[(target, policy, per), "timeouts"] > 3 * table.loc[(target, policy, one), "timeouts"]
    table1 = table.loc["table1"]
    timeouts = {scheme: table1.xs(scheme, level="retransmission timers").timeouts for scheme in (one, per)}
    checks([timeouts[one].min(), timeouts[one].max(), timeouts[per].min(), timeouts[per].max()], "64, 90, 2881, 4052")
    throughput = table1["effective throughput"]
    checks([throughput[("RCD", one)], throughput[("RCD", per)], table1["paper"][("RCD", one)]], "37173, 47273, 33999")
    checks([throughput[("ESPD", one)], throughput[("ESPD", per)], table1["paper"][("ESPD", one)]], "73696, 68337, 58999")
    gain, paper_gain = table1["gain over RCD (%)"], table1["paper's gain (%)"]
    checks([gain[("ESPD", one)], gain[("ESPD", per)], paper_gain[("ESPD", one)]], "+98.3, +44.6, +73.5")
    checks([gain[("EPD", one)], gain[("EPD", per)], paper_gain[("EPD", one)]], "+51.6, +26.3, +55.8")
    checks([table1["fairness"][("RCD", one)], table1["fairness"][("RCD", per)]], "0.993, 0.612")
