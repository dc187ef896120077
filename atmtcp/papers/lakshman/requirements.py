"""lakshman: section 6's buffer requirements as distributions over seeds (``lakshman.beta_requirements``,
issue 24).

lakshman 6: "For Pure Cell Drop at the Tail, beta should be at least in the range 3 or 4 to get "decent"
throughput for a reasonable range of "number of sources - RTT combinations". For Pure Cell Drop at the
Front, a value of beta = 1 is acceptable, although beta = 1.25 might be better choice. Partial Frame Drop at
the Tail may need much larger values of beta ... as high as 2 or 3 ... Partial Frame Drop at the Front comes
out best, allowing values of beta as low as 1 (maybe even a bit lower)."

The paper read each requirement off its one run per point. Ours is read off each seed alone
(:func:`requirements_per_seed`): per discipline, figure and seed, the smallest beta from which the
throughput stays at or above a level at every larger buffer (:func:`required_beta`, inf where it
never does within the paper's buffers); "all figures" is, per seed, the largest over the five
total-throughput figures (the paper's "reasonable range of number of sources - RTT combinations"). The
paper gives no number for "decent" or "acceptable": the levels are our DECENT (0.9) and a step either
side (:data:`LEVELS`). The tables summarize each distribution by its median and a 90 % interval of one run
(:func:`.study_figures.summarize_requirements`); the target's file keeps every seed's value, since no
experiment reads the statistics modules (:mod:`atmtcp.dependencies`).
"""
from __future__ import annotations

import numpy as np
import xarray as xr

from ...experiment import Experiment
from .experiments import TOTAL_FIGURES
from .scenario import DISCIPLINES, beta

TOTAL = tuple(TOTAL_FIGURES)
DECENT = 0.9
""""decent" (Cell-Tail needs beta of 3 or 4) and "acceptable" (Cell-Front at beta = 1): at least 90 %
of the bottleneck's cell slots carry good cells. The paper gives no number; 0.9 is where its
qualitative words sit on a 0-1 scale whose top is "perfect throughput" (the claims read it too)."""
DECENT_STEP = 0.05
DECENT_RANGE = tuple(round(DECENT + k * DECENT_STEP, 2) for k in (-1, 0, 1))
"""DECENT and one step either side (0.85, 0.9, 0.95; the issue's range): the levels of
``lakshman.beta_requirements``, and the range over which every claim that reads "decent" or "acceptable"
also gives its verdict. At 0.95 a point needs all but one slot in twenty carrying good cells, at 0.85 all
but three."""
LEVELS = DECENT_RANGE
ALL_FIGURES = "all figures"


def required_beta(throughput, betas, level: float = DECENT) -> float:
    """lakshman 6's requirement read on one curve: the smallest of ``betas`` (ascending) from which
    ``throughput`` stays at or above ``level`` at every larger buffer; inf when the largest buffer is below
    it ("never" within the paper's buffers), the smallest beta when no buffer is. A NaN point (a failed run)
    counts as below."""
    y, b = np.asarray(throughput, dtype=float), np.asarray(betas, dtype=float)
    below = np.flatnonzero(~(y >= level))
    if not below.size:
        return float(b[0])
    return float(b[below[-1] + 1]) if below[-1] + 1 < b.size else float("inf")


def figure_label(target: str) -> str:
    """``lakshman.fig2`` -> ``fig2``."""
    return target.split(".")[1]


def requirements_per_seed(data: dict[str, xr.Dataset], levels=LEVELS) -> xr.DataArray:
    """The requirement of every level, discipline, figure (``fig2`` ... ``fig10`` and :data:`ALL_FIGURES`) and
    seed common to the figures of TOTAL; inf where the discipline does not stay at the level."""
    totals = {t: data[t] for t in TOTAL}
    seeds = sorted(set.intersection(*(set(ds.seed.values.tolist()) for ds in totals.values())))
    figures = [figure_label(t) for t in TOTAL]
    out = np.full((len(levels), len(DISCIPLINES), len(figures) + 1, len(seeds)), np.nan)
    for i, level in enumerate(levels):
        for j, k in enumerate(DISCIPLINES):
            for f, ds in enumerate(totals.values()):
                curves = ds.total_throughput.sel(discipline=k)
                betas = beta(ds.buffer.values)
                out[i, j, f] = [required_beta(curves.sel(seed=s).values, betas, level) for s in seeds]
            out[i, j, -1] = out[i, j, :-1].max(axis=0)
    return xr.DataArray(out, dims=("level", "discipline", "figure", "seed"), coords={
        "level": list(levels), "discipline": list(DISCIPLINES), "figure": [*figures, ALL_FIGURES], "seed": seeds},
        attrs={"units": "1", "long_name": "smallest beta from which the throughput stays at or above the level "
               "(inf: never within the paper's buffers)"})


def derive(parents: dict[str, xr.Dataset]) -> xr.Dataset:
    """``lakshman.beta_requirements`` from the total-throughput figures: every seed's requirement, and the share
    of seeds that never reach each level (the median and interval are the readers', :mod:`.study_figures`)."""
    per_seed = requirements_per_seed(parents)
    ds = xr.Dataset({"required_beta": per_seed})
    ds["never_share"] = np.isinf(per_seed).mean("seed").assign_attrs(
        units="1", long_name="share of seeds that never stay at the level within the paper's buffers")
    ds.attrs.update(levels=", ".join(f"{v:g}" for v in LEVELS), decent=DECENT, figures=", ".join(TOTAL),
                    seeds=int(ds.sizes["seed"]))
    return ds


EXPERIMENTS = [
    Experiment("lakshman.beta_requirements", "Section 6's buffer requirements per seed: the smallest beta from "
               f"which each discipline stays at or above {', '.join(f'{v:g}' for v in LEVELS)}", parents=TOTAL,
               derive=derive),
]
