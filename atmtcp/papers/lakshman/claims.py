"""lakshman's claims about its results, each a check on the reproduced datasets.

Each quotes its sentences, names the targets it reads and is read on the distribution over seeds by the
noise model (:func:`atmtcp.claims.noise_verdict`): every check records its margin at each point it
compares (a buffer size of a figure, a figure, a pair of RED ranges), a point agrees when the 90 %
interval of its mean paired margin over the seeds lies on the claimed side, and the claim holds when the
share of points its words ask for agree (:mod:`atmtcp.words`: "consistently", "with rare exceptions" 90 %,
"by and large" 80 %, "sometimes" one point). The detail also says in how many seeds, each read alone, the
whole claim holds.
The checks therefore read the variables that keep the ``seed`` axis (``total_throughput``,
``good_throughput``; averaged over seeds when a dataset still has that axis), never the ``*_mean``
variables of :func:`atmtcp.papers.lakshman.experiments.seed_statistics`, which a single seed's
selection would leave at the mean.

The paper's words "decent", "acceptable", "about", "large", "by and large" and "consistently" take their
numbers from the table of all papers (:mod:`atmtcp.words`); "very small" (a buffer size) and the noise
tolerance are lakshman's own, below, each with its reason; every detail names the one it used. Where a claim reads "decent"/"acceptable", "about", "large" or "very small", its
detail also gives the verdict over a range of that number (the claim's ``sweeps``: DECENT_RANGE,
ABOUT_RANGE, LARGE_RANGE, VERY_SMALL_RANGE, each with the seeds that agree); the claim passes or fails at
the stated number alone (issue 24).
"""
from __future__ import annotations

import functools

import numpy as np

from ... import words
from ...claims import SEED_SHARE, Claim, Points, Sweep, joined
from .experiments import INDIVIDUAL_FIGURES, TOTAL_FIGURES
from .requirements import DECENT, DECENT_RANGE, required_beta  # noqa: F401  ("decent", with its reason there)
from .scenario import BUFFERS, LABELS, beta

TOTAL = tuple(TOTAL_FIGURES)
EQUAL_RTT = ("lakshman.fig2", "lakshman.fig6", "lakshman.fig10")

NOISE = 0.02
"""How much two curves may cross and still count as ordered, fixed when every point had three seeds:
two standard errors of the difference of two means of three seeds. The seeds' standard deviation of the
total throughput has a median of 0.013 over the points of Figs. 2-10 (30 s measured), so
2 x sqrt(2) x 0.013 / sqrt(3) = 0.021 (the notebook prints the spread). With ten seeds the same rule
would give 0.012 for the mean, and the difference of two single runs (each seed read alone) has a
standard deviation of about sqrt(2) x 0.013 = 0.018. The tolerance was chosen before the ten-seed
results and is kept as it is."""
ABOUT = words.ABOUT.value
""""about as good", "nearly the same", "does not make much of a difference", "doesn't really affect":
throughputs within :data:`atmtcp.words.ABOUT` at each point compared."""
LARGE = words.CONSIDERABLY.value
""""a large improvement": at least :data:`atmtcp.words.CONSIDERABLY` on average over the buffers below
beta = 2."""
VERY_SMALL_BETA = 0.2
""""very low buffer sizes", where "lockout due to phase effects" makes the exceptions: 256 and 1152
cells (beta 0.04 and 0.2)."""
BY_AND_LARGE = words.BY_AND_LARGE.value
""""By and large, Frame-Front is better": :data:`atmtcp.words.BY_AND_LARGE` of the points of Figs. 2-10."""
CONSISTENTLY = words.EVERY.value
""""consistently", "with rare exceptions", "for all buffer sizes": :data:`atmtcp.words.EVERY` of the points."""
SOMETIMES = words.SOMETIMES.value

NOISE_RANGE = (0.01, NOISE, 0.04)
"""NOISE, "consistently", read at half and twice its value too (0.012-0.021 are the rule's values for ten and
three seeds, see :data:`NOISE`)."""
BY_AND_LARGE_RANGE = words.BY_AND_LARGE.sweep
""""By and large" read at 70 % and 90 % of the points too."""
ABOUT_RANGE = words.ABOUT.sweep
LARGE_RANGE = words.CONSIDERABLY.sweep
_SMALL_INDEX = int(np.argmin(np.abs(beta(np.array(BUFFERS)) - VERY_SMALL_BETA)))
VERY_SMALL_RANGE = tuple(float(beta(b)) for b in BUFFERS[max(0, _SMALL_INDEX - 1):_SMALL_INDEX + 2])
"""VERY_SMALL_BETA and the betas of the paper's buffer sizes either side of it (256 and 2304 cells)."""


def _sweep(word: str, name: str, stated: float, values, check, parameter: str) -> Sweep:
    """The :class:`atmtcp.claims.Sweep` of one of our thresholds: ``check`` with ``parameter`` at each value."""
    return Sweep(word, name, stated, tuple(values), lambda v: functools.partial(check, **{parameter: v}))


def _over_seeds(da):
    """``da`` averaged over its seeds if it still has them (a check handed one seed, or the mean over
    seeds by :func:`atmtcp.claims.over_seeds`, gets it without a ``seed`` axis)."""
    return da.mean("seed") if "seed" in da.dims else da


def _mean(ds, **sel) -> np.ndarray:
    """The total good throughput of ``ds`` at ``sel``: one seed's, or the mean over the seeds."""
    return _over_seeds(ds.total_throughput.sel(**sel)).values


def _fig(target: str) -> str:
    return target.split(".")[1]


def _ordered(better: str, worse: str):
    """``better`` >= ``worse`` - NOISE at every buffer of every total-throughput figure ("consistently")."""
    def check(d, noise: float = NOISE):
        points, misses = Points(), []
        for t in TOTAL:
            ds = d[t]
            b, w = _mean(ds, discipline=better), _mean(ds, discipline=worse)
            misses += [f"{_fig(t)} {int(buf)}: {x:.3f} vs {y:.3f}" for buf, x, y in zip(ds.buffer.values, b, w)
                       if not points.at_least(x, y - noise)]
        n = len(points.margins)
        detail = (f"{LABELS[better]} >= {LABELS[worse]} - {noise:g} (NOISE, our tolerance) at {n - len(misses)} of {n} "
                  "points; below: "
                  + ("; ".join(misses) if misses else "none"))
        return points.verdict(detail, CONSISTENTLY)
    return check


def _cell_tail_poorest(d, very_small: float = VERY_SMALL_BETA):
    points, misses = Points(), []
    for t in TOTAL:
        ds = d[t]
        curves = {k: _mean(ds, discipline=k) for k in LABELS}
        for i, buf in enumerate(ds.buffer.values):
            if beta(buf) <= very_small:
                continue
            values = {k: float(y[i]) for k, y in curves.items()}
            others = min(v for k, v in values.items() if k != "cell_tail")
            if not points.at_most(values["cell_tail"], others + NOISE):
                misses.append(f"{_fig(t)} {int(buf)}: Cell-Tail {values['cell_tail']:.3f} > {others:.3f}")
    n = len(points.margins)
    return points.verdict( f"above beta {very_small:.2g} (our \"very small\"): Cell-Tail at most the poorest "
                   f"other + {NOISE} (NOISE, our tolerance) at "
                   f"{n - len(misses)} of {n} points; above it: " + ("; ".join(misses) if misses else "none"), CONSISTENTLY)


def _grows_with_buffer(d, very_small: float = VERY_SMALL_BETA):
    points, misses = Points(), []
    for t in TOTAL:
        ds = d[t]
        keep = beta(ds.buffer.values) > very_small
        for k in LABELS:
            y = _mean(ds, discipline=k)[keep]
            bufs = ds.buffer.values[keep]
            misses += [f"{_fig(t)} {LABELS[k]} {int(b0)}->{int(b1)}: {y0:.3f}->{y1:.3f}"
                       for b0, b1, y0, y1 in zip(bufs[:-1], bufs[1:], y[:-1], y[1:])
                       if not points.at_least(y1, y0 - NOISE)]
    n = len(points.margins)
    return points.verdict( f"above beta {very_small:.2g} (our \"very small\"), each step to the next buffer "
                   f"loses at most {NOISE} (NOISE, our tolerance): "
                   f"{n - len(misses)} of {n} steps; falls: " + ("; ".join(misses) if misses else "none"), CONSISTENTLY)


def _frame_front_best(d, by_and_large: float = BY_AND_LARGE):
    points, worst = Points(), []
    for t in TOTAL:
        ds = d[t]
        curves = {k: _mean(ds, discipline=k) for k in LABELS}
        for i, buf in enumerate(ds.buffer.values):
            values = {k: float(y[i]) for k, y in curves.items()}
            best_other = max(v for k, v in values.items() if k != "frame_front")
            if not points.at_least(values["frame_front"], best_other - NOISE):
                worst.append(f"{_fig(t)} {int(buf)}: {values['frame_front']:.3f} vs {best_other:.3f}")
    wins, n = points.held(), len(points.margins)
    share = wins / n
    return points.verdict( f"Frame-Front within {NOISE} (NOISE, our tolerance) of the best at {wins} "
                   f"of {n} points ({share:.0%}; needed {by_and_large:.0%}, our \"by and large\"); not: "
                   + ("; ".join(worst) if worst else "none"), by_and_large)


def _frame_tail_cell_front_cross(d):
    rows, points = [], Points()
    for t in EQUAL_RTT:
        ds = d[t]
        b = beta(ds.buffer.values)
        gap = _mean(ds, discipline="frame_tail") - _mean(ds, discipline="cell_front")
        small, large = float(gap[b < 1].mean()), float(gap[b >= 2].mean())
        points.at_least(small, 0.0)
        points.at_most(large, 0.0)
        rows.append(f"{_fig(t)}: Frame-Tail - Cell-Front {small:+.3f} below beta 1, {large:+.3f} from beta 2")
    return points.verdict("; ".join(rows) + " (small buffers: beta < 1, larger: beta >= 2, our reading; no "
                          "tolerance; each figure's two gaps are its points)")


def _needed_beta(ds, discipline: str, level: float = DECENT) -> float:
    """:func:`required_beta` of ``discipline`` in ``ds`` (one seed's, or the mean over the seeds)."""
    return required_beta(_mean(ds, discipline=discipline), beta(ds.buffer.values), level)


def _cell_tail_needs_3(d, decent: float = DECENT):
    needed = {t: _needed_beta(d[t], "cell_tail", decent) for t in TOTAL}
    worst = max(needed.values())
    detail = ", ".join(f"{_fig(t)} {v:g}" for t, v in needed.items())
    points = Points()
    points.within(worst, 3.25, 0.75)
    return points.verdict( f"smallest beta from which Cell-Tail stays >= {decent:g} (DECENT, our number "
                   f"for \"decent\"): {detail}; the largest, {worst:g}, should be 3 or 4 (2.5 to 4, the neighbouring "
                   f"buffer sizes)")


def _acceptable_at_beta_1(discipline: str):
    def check(d, decent: float = DECENT):
        values = {t: float(_mean(d[t], discipline=discipline, buffer=5760)) for t in TOTAL}
        detail = ", ".join(f"{_fig(t)} {v:.3f}" for t, v in values.items())
        points = Points()
        for v in values.values():
            points.at_least(v, decent)
        return points.verdict( f"{LABELS[discipline]} at beta = 1 (5760 cells): {detail}; "
                       f"needed >= {decent:g} in every figure (DECENT, our number for \"acceptable\")", CONSISTENTLY)
    return check


def _rtt_bias(ds, discipline: str) -> float:
    """Mean over the buffers of the shortest-RTT source's throughput over the longest-RTT source's."""
    y = _over_seeds(ds.good_throughput.sel(discipline=discipline))
    rtt = ds.rtt_s.sel(discipline=discipline)
    rtt = rtt.isel({dim: 0 for dim in rtt.dims if dim != "source"}).values  # nominal: the same in every run
    short, long_ = int(np.argmin(rtt)), int(np.argmax(rtt))
    return float(y.sel(source=short).mean() / max(1e-9, float(y.sel(source=long_).mean())))


def _front_narrows_bias(d):
    rows, points = [], Points()
    for t, (_, (tail, front), _) in INDIVIDUAL_FIGURES.items():
        ds = d[t]
        bt, bf = _rtt_bias(ds, tail), _rtt_bias(ds, front)
        points.at_least(bt, bf)
        points.at_least(bt, 1.0)
        rows.append(f"{_fig(t)}: shortest / longest RTT {LABELS[tail]} {bt:.2f}, {LABELS[front]} {bf:.2f}")
    return points.verdict("; ".join(rows) + " (mean over the buffers; the shorter RTT should gain, less under front)",
                          CONSISTENTLY)


def _frame_bias_gap_larger(d):
    rows, points = [], Points()
    for cell, frame in (("lakshman.fig4", "lakshman.fig5"), ("lakshman.fig8", "lakshman.fig9")):
        cell_gap = _rtt_bias(d[cell], "cell_tail") - _rtt_bias(d[cell], "cell_front")
        frame_gap = _rtt_bias(d[frame], "frame_tail") - _rtt_bias(d[frame], "frame_front")
        points.at_least(frame_gap, cell_gap)
        rows.append(f"{_fig(frame)}/{_fig(cell)}: tail - front bias, frame level {frame_gap:+.2f}, "
                    f"cell level {cell_gap:+.2f}")
    return points.verdict("; ".join(rows), CONSISTENTLY)


def _red_curves(ds) -> dict[float, np.ndarray]:
    return {float(r): _mean(ds, red_one=r) for r in ds.red_one.values}


def _front_beats_cell_red(d):
    front = _mean(d["lakshman.fig10"], discipline="cell_front")
    points, misses = Points(), []
    fig11 = d["lakshman.fig11"]
    for r, y in _red_curves(fig11).items():
        misses += [f"RED {r:g}..1 at {int(b)}: {yy:.3f} vs {f:.3f}" for b, yy, f in zip(fig11.buffer.values, y, front)
                   if not points.at_most(yy, f + NOISE)]
    n = len(points.margins)
    return points.verdict( f"Cell-Front >= cell-level RED - {NOISE} (NOISE, our tolerance) at "
                   f"{n - len(misses)} of {n} points; RED "
                   "above: " + ("; ".join(misses) if misses else "none"), CONSISTENTLY)


def _red_sensitive(d, large: float = LARGE):
    fig11 = d["lakshman.fig11"]
    curves = _red_curves(fig11)
    sensitive, worse = Points(), Points()
    gaps = _pair_gaps(curves)
    for gap in gaps:
        sensitive.at_least(gap, large)
    widest = curves[min(curves)]
    tail = _mean(d["lakshman.fig10"], discipline="cell_tail")
    below = [int(b) for b, w, c in zip(fig11.buffer.values, widest, tail) if worse.at_most(w, c - NOISE)]
    spread = max(gaps, default=float("nan"))
    return joined(f"largest gap between two RED ranges at one buffer: {spread:.3f} (sensitive where > "
                   f"{large:g}, our \"large\", at {sensitive.held()} of {len(sensitive.margins)} range pairs x buffers); "
                   f"RED {min(curves):g}..1 below Cell-Tail - {NOISE} (NOISE, our tolerance) at: {below or 'no buffer'} "
                   "(each needs one point: \"sometimes\")", sensitive.verdict("", SOMETIMES), worse.verdict("", SOMETIMES))


def _frame_red_like_frame_front(d, about: float = ABOUT, large: float = LARGE):
    ff = _mean(d["lakshman.fig10"], discipline="frame_front")
    ft = _mean(d["lakshman.fig10"], discipline="frame_tail")
    fig12 = d["lakshman.fig12"]
    small = beta(fig12.buffer.values) < 2
    rows, points = [], Points()
    for r, y in _red_curves(fig12).items():
        gap = float((y - ff).mean())
        gain = float((y - ft)[small].mean())
        points.within(gap, 0.0, about)
        points.at_least(gain, large)
        rows.append(f"RED {r:g}..1: - Frame-Front {gap:+.3f}, - Frame-Tail below beta 2 {gain:+.3f}")
    gain_ff = float((ff - ft)[small].mean())
    points.at_least(gain_ff, large)
    return points.verdict("; ".join(rows) + f"; Frame-Front - Frame-Tail below beta 2 {gain_ff:+.3f} (mean over "
                   f"buffers; \"about\": within {about:g}, \"large\": at least {large:g}, both ours)", CONSISTENTLY)


def _frame_red_robust(d, about: float = ABOUT):
    curves = _red_curves(d["lakshman.fig12"])
    fig14 = np.ravel(_mean(d["lakshman.fig14"]))
    gaps12, gaps14 = _pair_gaps(curves), _pair_gaps(dict(enumerate(fig14)))
    points = Points()
    for gap in gaps12 + gaps14:
        points.at_most(gap, about)
    spread12, spread14 = max(gaps12, default=float("nan")), max(gaps14, default=float("nan"))
    return points.verdict(f"largest gap between two RED ranges at one buffer (Fig. 12) {spread12:.3f}; between two "
                          f"RED_full/RED_one = 1e2..1e12 (Fig. 14) {spread14:.3f}; robust where <= {about:g} (our "
                          f"\"about\"), each pair of ranges at each buffer a point", CONSISTENTLY)


def _red_front_or_tail(d, about: float = ABOUT):
    front, tail = d["lakshman.fig13"], d["lakshman.fig12"]
    rows, points = [], Points()
    for r in front.red_one.values:
        gap = _mean(front, red_one=r) - _mean(tail, red_one=r)
        for g in np.ravel(gap):
            points.within(g, 0.0, about)
        rows.append(f"RED {float(r):g}..1: front - tail mean {gap.mean():+.3f}, largest {gap[np.argmax(np.abs(gap))]:+.3f}")
    return points.verdict("; ".join(rows) + f" (little difference: within {about:g} at each buffer, our \"about\")",
                          CONSISTENTLY)


def _pair_gaps(curves: dict) -> list[float]:
    """``|a - b|`` for every pair of ``curves``' values (RED ranges' curves, or single throughputs), each pair
    once, at each buffer."""
    values = [np.atleast_1d(v) for v in curves.values()]
    return [float(g) for i, a in enumerate(values) for b in values[i + 1:] for g in np.abs(a - b)]


RED_TARGETS = ("lakshman.fig10", "lakshman.fig11", "lakshman.fig12")


def _decent(check, word: str = "decent") -> Sweep:
    return _sweep(word, "DECENT", DECENT, DECENT_RANGE, check, "decent")


def _acceptable(check) -> Sweep:
    return _decent(check, "acceptable")


def _very_small(check) -> Sweep:
    return _sweep("very small", "VERY_SMALL_BETA", VERY_SMALL_BETA, VERY_SMALL_RANGE, check, "very_small")


def _claim(name: str, quote: str, targets: tuple[str, ...], check, *readings) -> Claim:
    """lakshman's sentence ``quote`` as a check on ``targets``, read over the seeds (:data:`SEED_SHARE`); each
    of ``readings`` (:func:`_about`, :func:`_decent`, ...) also reads the check with one of our thresholds
    over its range (:class:`atmtcp.claims.Sweep`)."""
    return Claim(name, "lakshman", quote, targets, check, seed_share=SEED_SHARE,
                 sweeps=tuple(reading(check) for reading in readings))


def _consistently(check) -> Sweep:
    return _sweep("consistently", "NOISE", NOISE, NOISE_RANGE, check, "noise")


def _by_and_large(check) -> Sweep:
    return _sweep("by and large", "BY_AND_LARGE", BY_AND_LARGE, BY_AND_LARGE_RANGE, check, "by_and_large")


def _about(check) -> Sweep:
    return _sweep("about", "ABOUT", ABOUT, ABOUT_RANGE, check, "about")


def _large(check) -> Sweep:
    return _sweep("large", "LARGE", LARGE, LARGE_RANGE, check, "large")


_CELL_FRONT_AT_1, _FRAME_FRONT_AT_1 = _acceptable_at_beta_1("cell_front"), _acceptable_at_beta_1("frame_front")
_FRONT_ORDER, _TAIL_ORDER = _ordered("frame_front", "cell_front"), _ordered("frame_tail", "cell_tail")

CLAIMS = [
    _claim("frame_front_over_cell_front", "We see that \"Partial Frame Drop\" helps improve throughput: "
           "consistently, Frame-Front has better throughput than Cell-Front (Figs. 2, 3, 6, 7, 10).", TOTAL,
           _FRONT_ORDER, _consistently),
    _claim("frame_tail_over_cell_tail", "... and consistently Frame-Tail has better throughput than "
           "Cell-Tail.", TOTAL, _TAIL_ORDER, _consistently),
    _claim("cell_tail_poorest", "In addition, with rare exceptions, Cell-Tail is the poorest performer. "
           "The exceptions all occur for very low buffer sizes.", TOTAL, _cell_tail_poorest, _very_small),
    _claim("throughput_grows_with_buffer", "We also see that with rare exceptions throughput increases "
           "when the buffer size increases. Again, the rare exceptions occur for very small buffer sizes.", TOTAL,
           _grows_with_buffer, _very_small),
    _claim("frame_front_best", "By and large, Frame-Front is better, often much better, than Cell-Front "
           "and also better than Frame-Tail.", TOTAL, _frame_front_best, _by_and_large),
    _claim("frame_tail_cell_front_crossover", "Frame-Tail is better than Cell-Front for small buffer "
           "sizes but Cell-Front becomes better than Frame-Tail for larger buffer sizes. This is in fact the case "
           "whenever all connections have the same RTT (Figures 2, 6, and 10).", EQUAL_RTT,
           _frame_tail_cell_front_cross),
    _claim("cell_tail_needs_beta_3", "For Pure Cell Drop at the Tail, beta should be at least in the range "
           "3 or 4 to get \"decent\" throughput for a reasonable range of \"number of sources - RTT combinations\".",
           TOTAL, _cell_tail_needs_3, _decent),
    _claim("cell_front_acceptable_at_beta_1", "For Pure Cell Drop at the Front, a value of beta = 1 is "
           "acceptable, although beta = 1.25 might be better choice.", TOTAL, _CELL_FRONT_AT_1, _acceptable),
    _claim("frame_front_at_beta_1", "Partial Frame Drop at the Front comes out best, allowing values of "
           "beta as low as 1 (maybe even a bit lower).", TOTAL, _FRAME_FRONT_AT_1, _decent),
    _claim("front_narrows_rtt_advantage", "Under all circumstances the connection with the shorter RTT "
           "has an advantage, and under Frame-Tail this advantage is much larger than under Frame-Front ... a "
           "similar, but weaker, difference in bias is present between Cell-Tail and Cell-Front (Figs. 4, 5, 8, 9).",
           tuple(INDIVIDUAL_FIGURES), _front_narrows_bias),
    _claim("frame_level_bias_gap_larger", "The Figures 4 (2 sources) and 8 (3 sources) show that a "
           "similar, but weaker, difference in bias is present between Cell-Tail and Cell-Front.",
           tuple(INDIVIDUAL_FIGURES), _frame_bias_gap_larger),
    _claim("front_beats_cell_red", "From the figure it can be seen that drop from front has the best "
           "performance for all buffer sizes (Fig. 11).", ("lakshman.fig10", "lakshman.fig11"), _front_beats_cell_red),
    _claim("cell_red_sensitive_to_range", "The TCP performance under RED not only is less than that of "
           "drop of front but also is sensitive to the precise drop probabilities. Indeed, if the drop probabilities "
           "span a wide range (10^-12 to 1 in the figure) then RED sometimes performs even worse than drop from tail.",
           ("lakshman.fig10", "lakshman.fig11"), _red_sensitive, _large),
    _claim("frame_red_like_frame_front", "Drop from front with partial frame drop gives almost similar "
           "performance ... either RED by the frame or dropping frames from the front gives a large improvement over "
           "dropping frames from the tail (Fig. 12).", ("lakshman.fig10", "lakshman.fig12"),
           _frame_red_like_frame_front, _about, _large),
    _claim("frame_red_robust_to_range", "Also, when applied at the frame level the throughputs are fairly "
           "robust to the specific parameters of the exponential drop function (Fig. 12) ... The graph shows that "
           "range doesn't really affect the throughput for RED at the frame level (Fig. 14).",
           ("lakshman.fig12", "lakshman.fig14"), _frame_red_robust, _about),
    _claim("red_front_or_tail_similar", "RED can be used at the front of the buffer or at the tail of the "
           "buffer. Figure 13 shows that this does not make much of a difference.", ("lakshman.fig12", "lakshman.fig13"),
           _red_front_or_tail, _about),
]
