"""lakshman: Lakshman, Neidhardt, Ott, "The Drop from Front Strategy in TCP and in TCP over ATM"
(INFOCOM '96). See :mod:`atmtcp.papers`."""
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from . import behaviour, experiments, requirements, studies
from ...claims import Finding
from .scenario import TCP_SETTINGS  # noqa: F401  (the package interface)

TCP_BEHAVIOUR = behaviour.CHECKS

ORDER = 4
NOTEBOOK = "lakshman"
EXPERIMENTS = [*experiments.EXPERIMENTS, *requirements.EXPERIMENTS, *studies.EXPERIMENTS, *behaviour.EXPERIMENTS]
STUDY_TARGETS = ["lakshman.beta_requirements", "lakshman.buffer_study"]
"""Issue 24: section 6's buffer requirements per seed and level (:mod:`.requirements`), and the readings
that move them (:mod:`.studies`); each a table and a figure."""
TABLE_TARGETS = [f"lakshman.fig{n}" for n in (2, 3, 6, 7, 10, 11, 12, 13, 14)] + ["lakshman.tcp_sensitivity",
                                                                                  *STUDY_TARGETS]
"""The throughputs behind the figures, as tables (mean over seeds and their range)."""
FIGURE_TARGETS = [*(f"lakshman.fig{n}" for n in range(2, 15)), "lakshman.early_warning", "lakshman.convergence",
                  "lakshman.tcp_sensitivity", *STUDY_TARGETS]

FINDINGS = [
    Finding("lakshman", "Our simulations show that, for the same buffer size, drop from front results in considerably "
            "higher TCP throughput than tail drop, and for all but very small buffers even higher than tail drop "
            "combined with partial frame drop.", "abstract (section 4, Figs. 2, 3, 6, 7, 10)",
            ("cell_tail_poorest", "frame_front_best", "frame_tail_cell_front_crossover")),
    Finding("lakshman", "We see that “Partial Frame Drop” helps improve throughput: consistently, Frame-Front has "
            "better throughput than Cell-Front, and consistently Frame-Tail has better throughput than Cell-Tail.",
            "section 4 (Figs. 2, 3, 6, 7, 10)", ("frame_front_over_cell_front", "frame_tail_over_cell_tail")),
    Finding("lakshman", "We found that drop from front typically requires less buffering. For good throughput, the "
            "simple “Pure Cell Drop from the Tail” policy needs a normalized buffer size of $\\beta = 3$ to get high "
            "throughput. ... In comparison, “Pure Cell Drop at the Front” and “Partial Frame Drop at the Front” "
            "allow β values close to 1 and possibly even less than one for “Partial Frame Drop at the Front”.",
            "section 6", ("cell_tail_needs_beta_3", "cell_front_acceptable_at_beta_1", "frame_front_at_beta_1")),
    Finding("lakshman", "we experimentally found that “Drop from Front” policies reduce (compared with “Drop from "
            "Tail” mechanisms) the throughput advantage that TCP sessions with shorter Round Trip Times have, and so "
            "drop from front alleviates unfairness.", "section 6 (Figs. 4, 5, 8, 9)",
            ("front_narrows_rtt_advantage",)),
    Finding("lakshman", "If these schemes are used by themselves at the cell level and are not used in conjunction "
            "with any form of frame drop, then drop from front results in higher performance than RED. Also, RED’s "
            "performance is sensitive to the range of probabilities used in the drop function.",
            "section 6 (Fig. 11)", ("front_beats_cell_red", "cell_red_sensitive_to_range")),
    Finding("lakshman", "RED’s performance is considerably better when RED is used in conjunction with whole frame "
            "drop. Drop from front with partial frame drop gives almost similar performance.", "section 6 (Fig. 12)",
            ("frame_red_like_frame_front",)),
]
"""lakshman's principal findings (its abstract and conclusions, in its words), each decided by the claims
named (:mod:`atmtcp.fidelity`). The buffer finding is decided on Cell-Tail's threshold (3 or 4) and on
the front disciplines' throughput at beta = 1; Frame-Tail's "2 and even 3" is compared as a number
(:mod:`.comparison`), not as a claim."""
