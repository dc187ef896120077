"""What the papers' words mean as numbers: one table for all five documents (issue 36).

The papers state their findings in words ("consistently", "significant", "about", "decent"). A claim
(:mod:`atmtcp.claims`) needs a number for each, and the same word must mean the same thing in every
paper. Each :class:`Word` below is that number, its unit, the reason for it, and the range a claim's
verdict is also read over (its ``sweep``), so a reader can see whether a verdict hangs on our choice.
The numbers were fixed from the words' meaning and the noise of one run, not from any verdict; where a
claim module had its own number before this table, the table keeps the value that module gave
the same word, unless two modules disagreed (then the reason says which and why).

Two kinds of words:

- **Shares of points** ("consistently", "by and large"): how many of a claim's points must agree
  (:func:`atmtcp.claims.noise_verdict`: a point agrees when the 90 % interval of its mean paired difference
  over our seeds lies on the claimed side, the tolerance included).
- **Sizes of a difference or a level**, in the unit of the quantity (fraction points of a throughput,
  utilization or fairness index; a relative difference; a correlation).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Word:
    """One reading of the papers' ``words``: ``value`` in ``unit``, with ``reason``; ``sweep``: the values a
    claim's verdict is also read at (``value`` among them).

    Parameters
    ----------
    words : tuple of str
        The papers' words this reading is for.
    value : float
        Our number for them.
    unit : str
        Its unit.
    reason : str
        Why that number.
    sweep : tuple of float
        The values a verdict is also read at.

    Raises
    ------
    ValueError
        If ``value`` is not among ``sweep``.
    """

    words: tuple[str, ...]
    value: float
    unit: str
    reason: str
    sweep: tuple[float, ...]

    def __post_init__(self):
        if self.value not in self.sweep:
            raise ValueError(f"Word {self.words[0]!r}: its value {self.value:g} is not among its sweep {self.sweep}")


EVERY = Word(
    ("consistently", "for all", "in every", "under all circumstances", "with rare exceptions"), 0.9,
    "share of a claim's points that agree",
    "Each point's interval is a 90 % statement: where a claim is true at every point but some points sit at "
    "the claim's tolerance, about one point in twenty still falls just outside (the one-sided 5 % tail). "
    "Asking for every point would make a claim over 70 points fail most of the time when it is exactly "
    "true; 90 % leaves room for that tail and no more. And no point may contradict (its interval wholly on "
    "the other side): 'consistently' and 'the exceptions all occur for very low buffer sizes' allow no "
    "clear exception.",
    (0.8, 0.9, 1.0))
BY_AND_LARGE = Word(
    ("by and large", "in most cases", "generally"), 0.8, "share of a claim's points that agree",
    "Most, but clearly more than a majority: four points in five, whatever the others show (lakshman's "
    "claims read it so before this table; kept).",
    (0.7, 0.8, 0.9))
SOMETIMES = Word(
    ("sometimes", "in some cases"), 0.0, "share of a claim's points that agree",
    "An existence: at least one point of the claim agrees (a share of 0 asks for one point).",
    (0.0, 0.1, 0.2))
SIGNIFICANT = Word(
    ("significant", "significantly"), 0.0, "fraction points beyond zero",
    "A statistician's word: the difference is there when the 90 % interval of the mean paired difference "
    "over our seeds excludes zero on the claimed side (no size asked beyond that). ewa read it as 0.01 in "
    "one claim and 0.05 in the next; both become this reading, and the old sizes are the sweep.",
    (0.0, 0.01, 0.05))
CONSIDERABLY = Word(
    ("considerably", "large", "much better", "a large improvement"), 0.05, "fraction points",
    "At least 0.05 of the link (of a throughput or utilization normalized to the link): more than twice "
    "the standard deviation of one run's throughput in the papers' scenarios (lakshman: 0.013-0.018), a "
    "gap the papers' plots show plainly. Read at half and double too.",
    (0.025, 0.05, 0.1))
ABOUT = Word(
    ("about", "nearly the same", "almost similar", "does not make much of a difference",
     "doesn't really affect", "comparable"), 0.03, "fraction points",
    "Within 0.03 of the link: one or two standard deviations of one run, which the papers' plots would "
    "show as overlapping curves (lakshman's reading before this table; ewa's 'comparable' was 0.05, now "
    "in the sweep). Read at half and double too.",
    (0.015, 0.03, 0.05, 0.06))
APPROXIMATELY = Word(
    ("approximately", "roughly"), 0.5, "relative difference from a duration or size the paper gives",
    "A duration read off a plot's time axis by eye ('approximately 150 milliseconds', 'approximately 2 "
    "seconds') is known to within a factor of about 1.5 either way: 150 ms stands for 75-225 ms (ewa's "
    "reading before this table; kept).",
    (0.25, 0.5, 1.0))
DECENT = Word(
    ("decent", "acceptable", "high throughput"), 0.9, "throughput as a fraction of the link",
    "Nine tenths of the link: the level lakshman's plots separate as 'decent' (its curves that the text "
    "calls poor stay well below it; lakshman's reading before this table; kept).",
    (0.85, 0.9, 0.95))
FAIR = Word(
    ("fair", "a high degree of fairness", "small variations"), 0.95, "Jain's fairness index",
    "An index of 0.95 is what ten connections give when one has 83 % more throughput than its nine equal "
    "peers (or 71 % less): differences a plot still shows as 'small' (ewa's reading before this table; kept).",
    (0.9, 0.95, 0.99))
PERFECTLY_FAIR = Word(
    ("perfectly fair", "equal throughputs", "equal"), 0.99, "Jain's fairness index",
    "An index of 0.99: one connection of ten with 35 % more than the nine others (ewa's reading before "
    "this table; kept).",
    (0.98, 0.99, 0.995))
SYNCHRONIZED = Word(
    ("synchronized", "in phase", "asynchronous", "desynchronized"), 0.1, "mean pairwise correlation of the windows",
    "Windows are synchronized when the 90 % interval of their mean pairwise correlation lies above 0.1, "
    "and asynchronous when it lies within +-0.1: a correlation of 0.1 explains 1 % of one window's "
    "variance by another's. The same cutoff decides both words, so a policy cannot count as both "
    "(cheon's claim accepted EPD at +0.114 as desynchronized while the paper calls EPD synchronized).",
    (0.05, 0.1, 0.2))

WORDS = (EVERY, BY_AND_LARGE, SOMETIMES, SIGNIFICANT, CONSIDERABLY, ABOUT, APPROXIMATELY, DECENT, FAIR, PERFECTLY_FAIR,
         SYNCHRONIZED)
"""Every word's reading, in the order of the fidelity page's table."""


def markdown_table() -> str:
    """The words table of the fidelity page: each reading, its number, unit, range and reason.

    Returns
    -------
    str
        A Markdown table.
    """
    lines = ["| the papers' words | our number | unit | also read at | why |", "|---|---|---|---|---|"]
    for w in WORDS:
        words = ", ".join(f'"{x}"' for x in w.words)
        sweep = ", ".join(f"{v:g}" for v in w.sweep if v != w.value)
        lines.append(f"| {words} | {w.value:g} | {w.unit} | {sweep} | {w.reason} |")
    return "\n".join(lines)
