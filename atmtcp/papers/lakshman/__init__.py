"""lakshman: Lakshman, Neidhardt, Ott, "The Drop from Front Strategy in TCP and in TCP over ATM"
(INFOCOM '96). See :mod:`atmtcp.papers`."""
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from .experiments import EXPERIMENTS  # noqa: F401

ORDER = 4
NOTEBOOK = "lakshman"
TABLE_TARGETS = [f"lakshman.fig{n}" for n in (2, 3, 6, 7, 10, 11, 12, 13, 14)]
"""The throughputs behind the figures, as tables (mean over seeds and their range)."""
FIGURE_TARGETS = [*(f"lakshman.fig{n}" for n in range(2, 15)), "lakshman.early_warning", "lakshman.convergence"]
