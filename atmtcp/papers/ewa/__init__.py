"""ewa: Kalampoukas, Varma and Ramakrishnan, "Explicit Window Adaptation: A Method to Enhance TCP
Performance". One subpackage per section of the paper: :mod:`.section2` (Figs. 2-12: Drop-Tail,
Drop-from-Front and RED at the ATM access point), :mod:`.section3` (Fig. 13 and eq. 3.2: EWA's feedback
function), :mod:`.section4` (Figs. 14-39: EWA's evaluation); what they share is in :mod:`.shared`. See
:mod:`atmtcp.papers`."""
from ...claims import Finding
from .section2 import claims as section2_claims, experiments as section2_experiments
from .section3 import claims as section3_claims, experiments as section3_experiments
from .section4 import claims as section4_claims, experiments as section4_experiments
from .shared.scenario import TCP_SETTINGS  # noqa: F401  (the package interface)
from .behaviour import CHECKS as TCP_BEHAVIOUR  # noqa: F401  (the package interface)

ORDER = 5
NOTEBOOK = "ewa"
EXPERIMENTS = section2_experiments.EXPERIMENTS + section3_experiments.EXPERIMENTS + \
    section4_experiments.EXPERIMENTS
CLAIMS = section2_claims.CLAIMS + section3_claims.CLAIMS + section4_claims.CLAIMS
TABLE_TARGETS = ["ewa.fig4", "ewa.tcp_sensitivity", "ewa.two_way_study", "ewa.red_study", "ewa.opnet_timer_study",
                 "ewa.fig13"]
"""Fig. 4 (average throughput per connection), our TCP, RED and timer studies and Fig. 13's statistics are also tables."""
FIGURE_TARGETS = [f"ewa.fig{n}" for n in range(2, 40)] + ["ewa.tcp_sensitivity", "ewa.two_way_study", "ewa.red_study",
                                                          "ewa.opnet_timer_study"]

FINDINGS = [
    Finding("ewa", "During the first 10 secs the utilization is approximately 70%. The throughput loss is mainly due "
            "to the synchronization of the losses for the connections and their simultaneous recovery. This results "
            "in idling the link substantially.", "section 2 (Drop-Tail at AAP-1, Figs. 5-6)",
            ("drop_tail_utilization",)),
    Finding("ewa", "While better than Drop-Tail, this loss in throughput indicates that the mechanism is still unable "
            "to overcome the fundamental problem: there is throughput degradation when packet loss is used as the "
            "sole indicator of congestion.", "section 2.1 (Drop-from-Front, Figs. 7-8)",
            ("drop_from_front_utilization", "drop_from_front_over_drop_tail")),
    Finding("ewa", "Observe that the throughput allocation is perfectly fair among the active connections. ... the "
            "buffer never underflows in steady state, leading to perfect link utilization. ... Except for brief "
            "periods when the number of active connections changes, the utilization of link L1 remains 100%.",
            "section 4.1 (EWA, Figs. 14-17)",
            ("small_ip_equal_shares", "small_ip_no_underflow", "small_ip_full_utilization")),
    Finding("ewa", "The EWA scheme achieves fairness in steady state by signaling the same window size to all the TCP "
            "connections. It can also operate with buffer sizes smaller than the round-trip delay-bandwidth product "
            "of the network.", "section 5 (tested on section 4.3, Figs. 22-25)",
            ("unequal_ip_equal_windows", "unequal_ip_small_underflows")),
    Finding("ewa", "the results to be presented next reveal that EWA remains highly efficient and fair even in the "
            "presence of a large number of bursty connections.", "section 4.6 (ON/OFF sources, Figs. 34-37)",
            ("on_off_utilization_perfect", "on_off_fair", "on_off_no_overflow")),
    Finding("ewa", "results in significant improvements in packet loss rate, fairness, and throughput over a packet "
            "discard policy such as Drop-from-Front or Random Early Detection.",
            "abstract (tested on section 4.1 against section 2, and on section 4.6 against RED)",
            ("ewa_less_loss_than_dff_and_red", "ewa_fairer_than_dff_and_red", "ewa_more_throughput_than_dff_and_red",
             "red_on_off_worse_utilization")),
]
"""ewa's principal findings (in its words), each decided by the claims named (:mod:`atmtcp.fidelity`)."""
