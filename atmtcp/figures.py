"""What every paper's figures and tables share: saving them (PNG, CSV with six significant
digits, Markdown, HTML), the quick-mode stamp, and the report's front page.

Each paper's own figure functions live in its package (``atmtcp.papers.<paper>.figures``);
they return a matplotlib Figure or a pandas DataFrame and leave the saving to
:func:`save_figure` and :func:`save_table`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .reference import agreement


QUICK_STAMP = "QUICK MODE: shortened runs, not the paper's setup"


SAVED_DPI = 120
"""The resolution of every saved PNG."""

CSV_FLOAT_FORMAT = "%.6g"
"""Every CSV is written with six significant digits, so the same results give the same bytes
(summing in another order changes the 16th digit, not the 6th)."""


def write_csv(frame: pd.DataFrame, path: Path | str, index: bool = True) -> Path:
    """Write ``frame`` as CSV with :data:`CSV_FLOAT_FORMAT`."""
    frame.to_csv(path, index=index, float_format=CSV_FLOAT_FORMAT)
    return Path(path)


def save_figure(fig, figures_dir: Path | str, target: str, quick: bool = False) -> Path:
    """Write ``fig`` as ``<figures_dir>/<paper>/<target>.png``; a quick-mode figure carries
    :data:`QUICK_STAMP` across its top."""
    path = Path(figures_dir) / target.split(".")[0] / f"{target}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    if quick:
        fig.text(0.5, 1.0, QUICK_STAMP, ha="center", va="bottom", color="tab:red", fontsize=11, weight="bold")
    fig.savefig(path, dpi=SAVED_DPI, bbox_inches="tight")
    return path


def save_and_show(fig, figures_dir: Path | str, target: str, quick: bool = False) -> Path:
    """:func:`save_figure`; then, in a Jupyter kernel, show the saved PNG where the cell runs and close ``fig``.

    The notebook then shows exactly the file written to ``figures/``, at the size matplotlib's inline
    backend would have shown the figure, and matplotlib lays out and draws the figure once instead of
    twice: the inline backend would draw it again at the end of the cell. Measured on 2026-11-29, the
    two alternating, twice: the goyal1998 notebook alone in quick mode 43 s with those second drawings,
    31 s without; the four paper notebooks' quick tests on 2 workers 89-95 s wall and 151-161 s of CPU,
    73 s and 125 s without. Outside a kernel ``fig`` stays open, as after :func:`save_figure`.
    """
    path = save_figure(fig, figures_dir, target, quick)
    if _in_a_jupyter_kernel():
        import matplotlib.pyplot as plt
        from IPython.display import Image, display
        from PIL import Image as PNG

        with PNG.open(path) as png:
            width = png.width
        display(Image(filename=str(path), width=round(width * fig.dpi / SAVED_DPI)))
        plt.close(fig)
    return path


def _in_a_jupyter_kernel() -> bool:
    """Whether this process is a Jupyter kernel (JupyterLab, papermill), not plain Python or a terminal IPython."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


def save_table(table: pd.DataFrame, figures_dir: Path | str, target: str, quick: bool = False) -> Path:
    """Write ``table`` as CSV and Markdown next to the figures of its paper; a quick-mode
    Markdown table opens with :data:`QUICK_STAMP` (the CSV stays plain, in the quick folder)."""
    folder = Path(figures_dir) / target.split(".")[0]
    folder.mkdir(parents=True, exist_ok=True)
    write_csv(table, folder / f"{target}.csv")
    lines = markdown_lines(table)
    if quick:
        lines = [f"**{QUICK_STAMP}**", ""] + lines
    (folder / f"{target}.md").write_text("\n".join(lines) + "\n")
    return folder / f"{target}.md"


def markdown_lines(table: pd.DataFrame) -> list[str]:
    """``table`` (its index as the first columns) as the lines of a Markdown table."""
    flat = table.copy()
    if isinstance(flat.columns, pd.MultiIndex):
        flat.columns = [" ".join(str(c) for c in col).strip() for col in flat.columns]
    flat = flat.reset_index() if not isinstance(flat.index, pd.RangeIndex) else flat
    lines = ["| " + " | ".join(map(str, flat.columns)) + " |", "|" + "---|" * len(flat.columns)]
    for _, row in flat.iterrows():
        lines.append("| " + " | ".join(_cell(v) for v in row.values) + " |")
    return lines


def _cell(value) -> str:
    """Markdown cell text: counts and large numbers in full (7591, not 7.59e+03), ratios with two
    decimals."""
    if isinstance(value, (float, np.floating)):
        if np.isnan(value):
            return ""
        if abs(value) >= 100 or (float(value).is_integer() and abs(value) >= 2):
            return f"{value:.0f}"
        return f"{value:.2f}"
    return str(value)


def trace_samples(trace: xr.DataArray) -> xr.DataArray:
    """A one-row trace on ``time`` without the NaN outside the row's own samples (a stacked trace is NaN
    where another row sampled and this one did not)."""
    return trace.dropna("time")


def seed_spread(ds: xr.Dataset, metric: str) -> pd.DataFrame:
    """min-max over the seeded runs with start jitter, per table cell."""
    jittered = ds[metric].sel(seed=ds.seed.values[ds.seed.values > 0])
    low = jittered.min("seed").to_dataframe(name="min")["min"]
    high = jittered.max("seed").to_dataframe(name="max")["max"]
    spread = pd.concat([low, high], axis=1).dropna()
    return spread.unstack("policy").round(2)


def summary_header(paper: str, verdicts: pd.DataFrame, targets: list[str], quick: bool) -> list[str]:
    """The first lines of a paper's section of the report's front page (reStructuredText): its title,
    the quick-mode stamp, the targets reproduced and the claims passed, the failing ones named."""
    passed = int(verdicts.passed.sum())
    failing = ", ".join(verdicts.claim[~verdicts.passed.astype(bool)])
    lines = [paper, "-" * len(paper), ""]
    if quick:
        lines += [f"**{QUICK_STAMP}**", ""]
    return lines + [f"* targets reproduced: {len(targets)} ({', '.join(t.split('.', 1)[1] for t in targets)})",
                    f"* claims: {passed} of {len(verdicts)} pass" + (f"; failing: {failing}" if failing else "")]


def report_summary(paper: str, comparison: pd.DataFrame, verdicts: pd.DataFrame, targets: list[str],
                   tables: dict[str, pd.DataFrame], quick: bool) -> str:
    """reStructuredText for the report's front page: for ``paper``, the targets reproduced, the claims
    passed (the failing ones named), per target the compared cells, the share of the paper's values
    inside our 90 % interval over seeds and the mean ``|difference|`` per kind (fractions in points,
    quantities in % of the paper: :func:`atmtcp.reference.agreement`), and the tables that have no
    figure, each in full. (No ``|`` in the text: reST reads ``|x|`` as a substitution.)"""
    per_target = agreement(comparison)
    total = agreement(comparison.assign(all="all"), by=("all",))
    lines = summary_header(paper, verdicts, targets, quick)
    if len(total):
        t = total.iloc[0]
        lines.append(f"* paper values compared: {int(t.cells)}; inside our 90 % interval over seeds: {int(t.inside)} "
                     f"of {int(t['with interval'])}; model parameters echoed (not counted): "
                     f"{int((comparison.status == 'model parameter').sum())}")
    lines.append("")
    if len(per_target):
        lines += rst_table("the paper's values against the distribution over seeds, per target", per_target)
    for name, table in tables.items():
        lines += rst_table(name, table)
    return "\n".join(lines) + "\n"


def rst_table(title: str, table: pd.DataFrame) -> list[str]:
    """The lines of a reStructuredText ``list-table`` titled ``title`` holding ``table`` (a column
    MultiIndex joined into one header row, the index as the first columns); empty cells shown as ``-``."""
    flat = table.copy()
    if isinstance(flat.columns, pd.MultiIndex):
        flat.columns = [" ".join(str(c) for c in col).strip() for col in flat.columns]
    if not isinstance(flat.index, pd.RangeIndex):
        flat = flat.reset_index()
    out = [f".. list-table:: {title}", "   :header-rows: 1", ""]
    out.append("   * - " + "\n     - ".join(str(c) for c in flat.columns))
    for _, row in flat.iterrows():
        out.append("   * - " + "\n     - ".join(_cell(v) or "-" for v in row.values))
    return out + [""]


def write_html_table(frame: pd.DataFrame, path: Path | str) -> Path:
    """``frame`` as a standalone HTML page (the report shows HTML; it shows Markdown as nothing)."""
    html = frame.to_html(index=False, float_format=lambda v: f"{v:.4g}", na_rep="", border=0)
    Path(path).write_text("<html><head><meta charset='utf-8'><style>table{border-collapse:collapse;"
                          "font:12px sans-serif}td,th{padding:2px 8px;border-bottom:1px solid #ddd}"
                          "</style></head><body>" + html + "</body></html>\n")
    return Path(path)
