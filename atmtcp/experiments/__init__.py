"""The registry of every simulated target: :data:`EXPERIMENTS` maps a target id of
``atmtcp list`` to its :class:`~atmtcp.experiment.Experiment`, collected from the
paper packages (:mod:`atmtcp.papers`, :data:`PAPER_EXPERIMENTS`, the targets of ``make reproduce``) and
the studies beyond the papers (:data:`STUDY_EXPERIMENTS`: the atlas, :mod:`atmtcp.atlas`, built by
``make atlas``; the cross-check with an independent simulator, :mod:`atmtcp.validation`, built by
``make validate``).

The studies are imported by name, as :mod:`atmtcp.papers` finds the paper packages: the runner imports this
registry, and a static import here would make every experiment's results depend on the atlas's modules
(:mod:`atmtcp.dependencies` follows ``import`` statements).
"""
import importlib

from ..experiment import Experiment
from ..papers import EXPERIMENTS as PAPER_EXPERIMENTS

STUDIES = ("atmtcp.atlas.experiments", "atmtcp.validation.experiments")
STUDY_EXPERIMENTS = {e.id: e for module in STUDIES for e in importlib.import_module(module).EXPERIMENTS}
"""Targets that belong to no paper: the atlas (``atlas.*``) and the validation (``validation.*``), outside
``make reproduce``."""
EXPERIMENTS = {**PAPER_EXPERIMENTS, **STUDY_EXPERIMENTS}

__all__ = ["EXPERIMENTS", "Experiment", "PAPER_EXPERIMENTS", "STUDY_EXPERIMENTS"]
