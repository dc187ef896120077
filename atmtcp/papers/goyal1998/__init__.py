"""goyal1998: Goyal, Jain, Kalyanaraman, Fahmy, Vandalore, "Improving the performance of TCP
over the ATM-UBR service" (Computer Communications 21, 1998). See :mod:`atmtcp.papers`."""
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from .experiments import EXPERIMENTS  # noqa: F401

ORDER = 1
NOTEBOOK = "goyal1998"
TABLE_TARGETS = [
    *(f"goyal1998.table{n}" for n in range(1, 10)),
    "goyal1998.fba_factorial", "goyal1998.sd_z_sweep", "goyal1998.many_sources", "goyal1998.sack_bound",
    "goyal1998.ubr_sensitivity",
]
FIGURE_TARGETS = [
    # bar charts of paper vs reproduced numbers, beside the tables
    *(f"goyal1998.table{n}" for n in (1, 2, 4, 5, 6, 7)),
    # figures proper
    "goyal1998.fig2", "goyal1998.fig5", "goyal1998.fig6", "goyal1998.fig7", "goyal1998.sack_bound",
    "goyal1998.fba_factorial", "goyal1998.sd_z_sweep", "goyal1998.ubr_sensitivity",
]
