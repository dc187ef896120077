"""cheon: Cheon and Panwar, "Early Selective Packet Discard for Alternating Resource Access of
TCP over ATM-UBR". See :mod:`atmtcp.papers`."""
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from . import experiments, studies
from ...claims import Finding
from .scenario import TCP_SETTINGS  # noqa: F401  (the package interface)
from .behaviour import CHECKS as TCP_BEHAVIOUR  # noqa: F401  (the package interface)

EXPERIMENTS = [*experiments.EXPERIMENTS, *studies.EXPERIMENTS]
ORDER = 3
NOTEBOOK = "cheon"
PAPER_TABLES = [f"cheon.table{n}" for n in range(1, 6)]
STUDY_TABLES = ["cheon.espd_hold_study", "cheon.espd_readings", "cheon.eom_study", "cheon.opnet_timer_study"]
STUDY_FIGURES = ["cheon.espd_hold_study", "cheon.eom_study"]
TABLE_TARGETS = [*PAPER_TABLES, *STUDY_TABLES]
FIGURE_TARGETS = [*PAPER_TABLES, *(f"cheon.fig{n}" for n in range(2, 13)), *STUDY_FIGURES]
"""Tables 1-5 as tables and as bar charts; Figs. 2-12 (Fig. 12 is drawn without a simulation); the
studies of :mod:`.studies` (issue 23)."""
TITLES = {"cheon.fig12": "The ESPD decision flow chart, drawn from the kernel's espd_decision"}

FINDINGS = [
    Finding("cheon", "We observed that PPD alleviates the effect of packet fragmentation so that it gets effective "
            "throughput enhancement over RCD, and EPD provides further enhancement over PPD.", "abstract (Tables 1-4)",
            ("ppd_over_rcd", "epd_over_ppd")),
    Finding("cheon", "In most of the simulation experiments we performed, we found that the duration of congestion "
            "is about one roundtrip time.", "4.1.1 (Figs. 4-5)", ("congestion_epoch_one_rtt",)),
    Finding("cheon", "for RCD all the sessions have synchronized window expansion and shrinkage. ... The figure "
            "shows that ESPD makes the window expansion and shrinkage of sessions asynchronous.",
            "4.1.2 and 4.2.2 (Figs. 8-11)", ("synchronization_rcd_ppd_epd_espd",)),
    Finding("cheon", "Our results shows that ESPD achieves throughput and fairness enhancement over EPD with only a "
            "modest increase in implementation complexity.", "abstract (Tables 1-5)",
            ("espd_over_epd", "espd_fairness_not_below_epd")),
    Finding("cheon", "For the long roundtrip time sessions, ESPD improves the effective throughput by 87.7% and "
            "54.1% over EPD respectively, while it produces 25.6% and 18.4% improvement for the short roundtrip "
            "time sessions, respectively.", "4.2.3 (Tables 2 and 4; Table 5 in the Appendix)",
            ("espd_helps_long_rtt_more",)),
    Finding("cheon", "From Table 1, we can see that PPD improves the effective throughput by 28.3 % over random cell "
            "discard(RCD) and EPD gets another effective throughput enhancement of 21.4 % compared to PPD. The new "
            "scheme, ESPD, leads to a further improvement of 11.4% over EPD.", "4.2.3 (Table 1; the improvement "
            "rows of Tables 2-5 too)", ("improvement_percentages",)),
]
"""cheon's principal findings (in its words), each decided by the claims named
(:mod:`atmtcp.fidelity`). Of the numbers quoted, ``espd_helps_long_rtt_more`` checks only that the
long-RTT sessions gain more than the short ones; ``improvement_percentages`` checks every
improvement of the whole throughput (Tables 1-5) within 10 points of the paper's."""
