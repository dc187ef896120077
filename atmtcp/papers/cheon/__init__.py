"""cheon: Cheon and Panwar, "Early Selective Packet Discard for Alternating Resource Access of
TCP over ATM-UBR". See :mod:`atmtcp.papers`."""
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from .experiments import EXPERIMENTS  # noqa: F401

ORDER = 3
NOTEBOOK = "cheon"
TABLE_TARGETS = [f"cheon.table{n}" for n in range(1, 6)]
FIGURE_TARGETS = [*TABLE_TARGETS, *(f"cheon.fig{n}" for n in range(2, 13))]
"""Tables 1-5 as tables and as bar charts; Figs. 2-12 (Fig. 12 is drawn without a simulation)."""
TITLES = {"cheon.fig12": "The ESPD decision flow chart, drawn from the kernel's espd_decision"}
