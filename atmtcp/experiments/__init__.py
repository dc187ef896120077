"""The registry of every simulated target: :data:`EXPERIMENTS` maps a target id of
``atmtcp list`` to its :class:`~atmtcp.experiment.Experiment`, collected from the
paper packages (:mod:`atmtcp.papers`, :data:`PAPER_EXPERIMENTS`, the targets of ``make reproduce``) and
the studies beyond the papers (:data:`STUDY_EXPERIMENTS`: the atlas, :mod:`atmtcp.atlas`, built by
``make atlas``)."""
from ..experiment import Experiment
from ..papers import EXPERIMENTS as PAPER_EXPERIMENTS
from ..atlas.experiments import EXPERIMENTS as _ATLAS

STUDY_EXPERIMENTS = {e.id: e for e in _ATLAS}
"""Targets that belong to no paper: the atlas (``atlas.*``), outside ``make reproduce``."""
EXPERIMENTS = {**PAPER_EXPERIMENTS, **STUDY_EXPERIMENTS}

__all__ = ["EXPERIMENTS", "Experiment", "PAPER_EXPERIMENTS", "STUDY_EXPERIMENTS"]
