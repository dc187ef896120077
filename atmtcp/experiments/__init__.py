"""The registry of every simulated target: :data:`EXPERIMENTS` maps a target id of
``atmtcp list`` to its :class:`~atmtcp.experiment.Experiment`, collected from the
paper packages (:mod:`atmtcp.papers`)."""
from ..experiment import Experiment
from ..papers import EXPERIMENTS

__all__ = ["EXPERIMENTS", "Experiment"]
