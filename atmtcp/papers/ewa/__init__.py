"""ewa: Kalampoukas, Varma and Ramakrishnan, "Explicit Window Adaptation: A Method to Enhance TCP
Performance". Section 2 (Figs. 2-12): Drop-Tail, Drop-from-Front and RED at the ATM access point.
See :mod:`atmtcp.papers`."""
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from .experiments import EXPERIMENTS  # noqa: F401

ORDER = 5
NOTEBOOK = "ewa"
TABLE_TARGETS = ["ewa.fig4", "ewa.tcp_sensitivity"]
"""Fig. 4 (average throughput per connection) and our TCP study are also written as tables."""
FIGURE_TARGETS = [f"ewa.fig{n}" for n in range(2, 13)] + ["ewa.tcp_sensitivity"]
