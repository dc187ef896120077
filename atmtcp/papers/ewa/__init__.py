"""ewa: Kalampoukas, Varma and Ramakrishnan, "Explicit Window Adaptation: A Method to Enhance TCP
Performance". Section 2 (Figs. 2-12): Drop-Tail, Drop-from-Front and RED at the ATM access point
(``experiments``, ``claims``, ``figures``, ``scenario``); sections 3 and 4 (Figs. 13-39): EWA itself
(``experiments_ewa``, ``claims_ewa``, ``figures_ewa``, ``scenario_ewa``). See :mod:`atmtcp.papers`."""
from .claims import CLAIMS as SECTION_2_CLAIMS
from .claims_ewa import CLAIMS as EWA_CLAIMS
from .experiments import EXPERIMENTS as SECTION_2_EXPERIMENTS
from .experiments_ewa import EXPERIMENTS as EWA_EXPERIMENTS

ORDER = 5
NOTEBOOK = "ewa"
EXPERIMENTS = SECTION_2_EXPERIMENTS + EWA_EXPERIMENTS
CLAIMS = SECTION_2_CLAIMS + EWA_CLAIMS
TABLE_TARGETS = ["ewa.fig4", "ewa.tcp_sensitivity", "ewa.fig13"]
"""Fig. 4 (average throughput per connection), our TCP study and Fig. 13's statistics are also tables."""
FIGURE_TARGETS = [f"ewa.fig{n}" for n in range(2, 40)] + ["ewa.tcp_sensitivity"]
