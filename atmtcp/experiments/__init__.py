"""One module per paper key of shared/REPRODUCTION.md; :data:`EXPERIMENTS` maps each
target id to its :class:`~atmtcp.experiments.common.Experiment`."""
from . import goyal1997, goyal1998
from .common import Experiment

EXPERIMENTS: dict[str, Experiment] = {e.id: e for module in (goyal1998, goyal1997) for e in module.EXPERIMENTS}

__all__ = ["EXPERIMENTS", "Experiment"]
