"""One module per paper key of shared/REPRODUCTION.md; :data:`EXPERIMENTS` maps each
target id to its :class:`~atmtcp.experiments.common.Experiment`."""
from . import goyal1997, goyal1998
from .common import Experiment
from ..papers.cheon import experiments as cheon

EXPERIMENTS: dict[str, Experiment] = {e.id: e for module in (goyal1998, goyal1997, cheon) for e in module.EXPERIMENTS}

__all__ = ["EXPERIMENTS", "Experiment"]
