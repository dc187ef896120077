"""goyal1998: Goyal, Jain, Kalyanaraman, Fahmy, Vandalore, "Improving the performance of TCP
over the ATM-UBR service" (Computer Communications 21, 1998). See :mod:`atmtcp.papers`."""
from . import experiments, studies
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from .behaviour import CHECKS as TCP_BEHAVIOUR  # noqa: F401  (the package interface)
from ...claims import Finding
from .scenario import TCP_SETTINGS  # noqa: F401  (the package interface)

EXPERIMENTS = [*experiments.EXPERIMENTS, *studies.EXPERIMENTS]
ORDER = 1
NOTEBOOK = "goyal1998"
TABLE_TARGETS = [
    *(f"goyal1998.table{n}" for n in range(1, 10)),
    "goyal1998.fba_factorial", "goyal1998.sd_z_sweep", "goyal1998.many_sources", "goyal1998.sack_bound",
    "goyal1998.ubr_sensitivity", "goyal1998.start_jitter",
    *studies.TARGETS,
]
FIGURE_TARGETS = [
    # bar charts of paper vs reproduced numbers, beside the tables
    *(f"goyal1998.table{n}" for n in (1, 2, 4, 5, 6, 7)),
    # figures proper
    "goyal1998.fig2", "goyal1998.fig5", "goyal1998.fig6", "goyal1998.fig7", "goyal1998.sack_bound",
    "goyal1998.fba_factorial", "goyal1998.sd_z_sweep", "goyal1998.ubr_sensitivity",
    *studies.TARGETS,
]

FINDINGS = [
    Finding("goyal1998", "To achieve maximum possible throughput (or zero cell loss) for TCP over UBR, switches need "
            "buffers equal to the sum of the receiver windows of all the TCP connections.", "section 7",
            ("zero_loss_buffer_is_sum_of_windows", "infinite_buffer_full_throughput")),
    Finding("goyal1998", "UBR with EPD improves the throughput performance of TCP. ... EPD does not have much effect "
            "on fairness because it does not drop segments selectively.", "section 7",
            ("epd_efficiency_not_fairness",)),
    Finding("goyal1998", "UBR with selective packet drop using per-VC accounting improves fairness over UBR + EPD.",
            "section 7", ("selective_drop_fairness_over_epd",)),
    Finding("goyal1998", "UBR with the FBA scheme can improve TCP throughput and fairness. ... We found R = 0.9 and "
            "Z = 0.8 to produce best results for our configurations.", "section 7", ("fba_best_r09_z08",)),
    Finding("goyal1998", "Fast retransmit and recovery is detrimental to the performance of TCP over large "
            "delay-bandwidth links.", "section 7", ("frr_hurts_wan_efficiency",)),
    Finding("goyal1998", "SACK TCP results in better throughput than both vanilla and Reno TCP.", "section 7 "
            "(tested on the WAN column averages, Table 8)", ("sack_highest_wan_efficiency",)),
]
"""goyal1998's principal findings (its section 7, in its words), each decided by the claims named
(:mod:`atmtcp.fidelity`)."""
