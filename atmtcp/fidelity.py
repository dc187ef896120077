"""The fidelity page: per document, how close the reproduction comes, in numbers and in findings.

Built from what the paper notebooks write (``figures/<notebook>/comparison.csv`` and
``claims.csv``) by ``notebooks/fidelity.ipynb`` into ``figures/fidelity.md``:

- per document: its targets, the compared cells (model parameters never count), the share of
  the paper's values inside our 90 % interval over seeds, the mean ``|difference|`` per metric kind
  (fractions in points, quantities in percent of the paper's value) and the claims passed;
- each paper's principal findings (``FINDINGS`` of its package: three to six, in the paper's
  words), marked **reproduced** (every claim behind it passes), **partly** (some do) or **not**
  (none does), with the claims' details as the evidence. No mark is typed in.
"""
from __future__ import annotations

import pandas as pd

from . import papers
from .claims import Finding
from .figures import markdown_lines
from .reference import agreement

MARKS = ("reproduced", "partly", "not")
IDENTITY = "identity of the model"
"""The mark of a finding whose every claim is an identity of the model (:attr:`atmtcp.claims.Claim.identity`):
shown, never counted among the reproduced."""


def document_keys() -> tuple[str, ...]:
    """The documents of the page, in the order of the papers' registry (:data:`atmtcp.papers.PAPERS`):
    a new paper's package appears without a list to edit.

    Returns
    -------
    tuple of str
    """
    return tuple(papers.PAPERS)


def document_of(target: str) -> str:
    """``goyal1998.table1`` -> ``goyal1998``.

    Parameters
    ----------
    target : str
        A target id.

    Returns
    -------
    str
        Its document (paper key).
    """
    return str(target).split(".")[0]


def mark(finding: Finding, verdicts: pd.DataFrame) -> tuple[str, str]:
    """(mark, evidence) of ``finding`` from the claims' verdicts (columns claim, passed, detail). A
    claim missing from ``verdicts`` counts as not passed and is named as missing.

    Parameters
    ----------
    finding : atmtcp.claims.Finding
        A principal finding of a paper.
    verdicts : pandas.DataFrame
        The claims' verdicts.

    Returns
    -------
    tuple of str
        The mark (one of :data:`MARKS`, or :data:`IDENTITY`) and the evidence in words.
    """
    passed, evidence, identities = [], [], []
    for name in finding.claims:
        row = verdicts[verdicts.claim == name]
        ok = bool(row.passed.iloc[0]) if len(row) else False
        identity = _identity(row)
        if identity:
            identities.append(name)
        else:
            passed.append(ok)
        detail = row.detail.iloc[0] if len(row) else "no verdict (claim missing)"
        label = " (an identity of the model: " + identity + ")" if identity else ""
        evidence.append(f"`{name}` {'passes' if ok else 'fails'}{label}: {detail}")
    if identities and not passed:
        return IDENTITY, "; ".join(evidence)
    label = MARKS[0] if passed and all(passed) else (MARKS[1] if any(passed) else MARKS[2])
    return label, "; ".join(evidence)


def _identity(row: pd.DataFrame) -> str:
    """The claim's reason for being an identity of the model (empty for a claim about the simulation)."""
    if not len(row) or "identity" not in row:
        return ""
    value = row.identity.iloc[0]
    return "" if pd.isna(value) else str(value)


def findings_table(findings, verdicts: pd.DataFrame) -> pd.DataFrame:
    """One row per finding: paper, where, the quote, its mark and the evidence.

    Parameters
    ----------
    findings : iterable of atmtcp.claims.Finding
        The papers' principal findings.
    verdicts : pandas.DataFrame
        The claims' verdicts.

    Returns
    -------
    pandas.DataFrame
        Columns ``paper``, ``where``, ``finding``, ``mark``, ``evidence``.
    """
    rows = []
    for finding in findings:
        label, evidence = mark(finding, verdicts)
        rows.append({"paper": finding.paper, "where": finding.where, "finding": finding.quote, "mark": label,
                     "evidence": evidence})
    return pd.DataFrame(rows, columns=["paper", "where", "finding", "mark", "evidence"])


def documents_table(comparisons: pd.DataFrame, verdicts: pd.DataFrame, targets: dict[str, list[str]]) -> pd.DataFrame:
    """Per document: targets, compared cells, the share inside the interval, the mean ``|difference|`` per
    kind, model parameters echoed, and the claims passed.

    Parameters
    ----------
    comparisons : pandas.DataFrame
        Every paper's :func:`atmtcp.reference.comparison`.
    verdicts : pandas.DataFrame
        Every paper's claims' verdicts.
    targets : dict of str to list of str
        Paper key -> its target ids.

    Returns
    -------
    pandas.DataFrame
        One row per document of :func:`document_keys`.
    """
    comparisons = comparisons.assign(document=comparisons.target.map(document_of))
    numbers = agreement(comparisons, by=("document",))
    rows = []
    for document in document_keys():
        own = comparisons[comparisons.document == document]
        claims = verdicts[(verdicts.paper == document) & ~_is_identity(verdicts)]
        row = {"document": document, "targets": len(targets.get(document, [])),
               "claims passed": f"{int(claims.passed.sum())} of {len(claims)}",
               "model parameters echoed": int((own.status == "model parameter").sum())}
        seeds = own[own.status == "compared"].seeds.dropna()
        if not seeds.empty:
            low, high = int(seeds.min()), int(seeds.max())
            row["seeds per cell"] = f"{low}" if low == high else f"{low}-{high}"
        if document in numbers.index:
            row.update(numbers.loc[document].to_dict())
        rows.append(row)
    columns = ["document", "targets", "cells", "seeds per cell", "with interval", "inside", "share inside",
               "fractions, points",
               "percentages, points", "quantities, % of paper", "model parameters echoed", "claims passed"]
    table = pd.DataFrame(rows).reindex(columns=columns)
    counted = verdicts[~_is_identity(verdicts)]
    table.attrs[NOISE_MODEL_READ] = (_noise_model_count(counted), len(counted))
    for count in ("cells", "with interval", "inside"):
        table[count] = table[count].astype("Int64")
    return table.set_index("document")


NOISE_MODEL_READ = "claims read by the noise model"
"""The key of :func:`documents_table`'s ``attrs`` entry (read, all): how many of the counted claims the noise
model read (the page says so under its rule)."""


def _noise_model_count(claims: pd.DataFrame) -> int:
    """How many of ``claims`` (rows of a claims.csv) were read by the noise model (their ``read_on``); claims
    written before issue 36 were read by the per-seed rule and count 0."""
    from .claims import NOISE_MODEL

    return int((claims.read_on == NOISE_MODEL).sum()) if "read_on" in claims else 0


def _is_identity(verdicts: pd.DataFrame) -> pd.Series:
    """Which verdicts are of identities of the model (never counted as claims passed)."""
    if "identity" not in verdicts:
        return pd.Series(False, index=verdicts.index)
    return verdicts.identity.fillna("").astype(str) != ""


STUDIES_FILE = "studies.csv"
"""What a paper notebook writes beside its claims: one row per study target (columns paper, target,
finding), each finding a sentence with the study's numbers, computed by the notebook."""


def collect_studies(figures_dir, notebooks: dict[str, tuple[str, ...]]) -> pd.DataFrame:
    """Every notebook's ``studies.csv`` under ``figures_dir`` (none: an empty table).

    Parameters
    ----------
    figures_dir : path-like
        The figures folder.
    notebooks : dict of str to tuple of str
        Notebook name -> its papers (:func:`atmtcp.papers.notebooks`).

    Returns
    -------
    pandas.DataFrame
        Columns ``paper``, ``target``, ``finding``.
    """
    from pathlib import Path

    frames = [pd.read_csv(Path(figures_dir) / name / STUDIES_FILE) for name in notebooks
              if (Path(figures_dir) / name / STUDIES_FILE).exists()]
    columns = ["paper", "target", "finding"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def page(documents: pd.DataFrame, findings: pd.DataFrame, quick: bool = False,
         studies: pd.DataFrame | None = None) -> str:
    """The Markdown of ``figures/fidelity.md``; ``studies`` (:func:`collect_studies`) adds, per paper,
    what its studies of the disagreements found.

    Parameters
    ----------
    documents : pandas.DataFrame
        :func:`documents_table`.
    findings : pandas.DataFrame
        :func:`findings_table`.
    quick : bool
        Whether the results are the quick mode's (the page says so).
    studies : pandas.DataFrame, optional
        :func:`collect_studies`.

    Returns
    -------
    str
    """
    counts = findings.mark.value_counts().reindex([*MARKS, IDENTITY], fill_value=0)
    lines = ["# Fidelity: how close the reproduction comes", ""]
    if quick:
        lines += ["**QUICK MODE: shortened runs and few seeds; these numbers are not the reproduction's.**", ""]
    lines += [
        "Each paper ran one simulation per table cell (cheon: the mean of 10 or 6). Ours are many: every compared "
        "cell is summarized by its mean over seeds and a 90 % interval of the paper's statistic (the 5th-95th "
        "percentiles of our single runs, or of bootstrap means of as many runs as the paper averaged). "
        "*Inside* counts the paper's values that fall in that interval: if the gaps were noise alone, about 90 % "
        "would. Fractions (efficiency, fairness, utilization, shares) are compared in points (100 x the "
        "difference), numbers already in percent (improvements) in points, other quantities in percent of the "
        "paper's value; model parameters echoed back are listed apart and never counted.",
        "",
        "## Per document",
        "",
        *markdown_lines(documents),
        "",
        f"## Principal findings ({_counts_text(counts)})",
        "",
        "A finding is *reproduced* when every claim behind it passes, *partly* when some do, *not* when none does. "
        f"A claim that is an identity of the model (it follows from a rule's arithmetic whatever the simulation "
        f"does) is shown but never counted; a finding resting on such claims alone is marked *{IDENTITY}*.",
        "",
        *verdict_rule_lines(documents.attrs.get(NOISE_MODEL_READ)),
    ]
    for document in document_keys():
        own = findings[findings.paper == document]
        if own.empty:
            continue
        lines += [f"### {document}", ""]
        for row in own.itertuples():
            lines += [f"- **{row.mark}** ({row.where}): \"{row.finding}\"", f"  - {row.evidence}"]
        lines.append("")
        studied = studies[studies.paper == document] if studies is not None else ()
        if len(studied):
            lines += ["Studies of the disagreements:", ""]
            lines += [f"- `{row.target}`: {row.finding}" for row in studied.itertuples()]
            lines.append("")
    return "\n".join(lines)


def _counts_text(counts: pd.Series) -> str:
    text = f"{counts['reproduced']} reproduced, {counts['partly']} partly, {counts['not']} not"
    return text + (f"; {counts[IDENTITY]} {IDENTITY}, not counted" if counts[IDENTITY] else "")


def verdict_rule_lines(read: tuple[int, int] | None = None) -> list[str]:
    """The fidelity page's section on how a claim reads our seeds, and the table of the papers' words; ``read``:
    (claims the noise model read, claims) on this page, said in one line (:data:`NOISE_MODEL_READ`).

    Parameters
    ----------
    read : tuple of int, optional
        (claims the noise model read, claims counted); None: no such line.

    Returns
    -------
    list of str
        Markdown lines.
    """
    from . import words

    count = ([f"On this page the noise model read {read[0]} of the {read[1]} claims counted"
              + (" (the others' verdicts were written before this rule)." if read[0] < read[1] else "."), ""]
             if read else [])
    return [
        "## How a claim reads the seeds",
        "",
        "A paper saw its finding in one run; we have ten per point. A claim's check records, at each point it "
        "compares (a buffer size, a table column, a phase), how far the point lies on the claimed side with the "
        "claim's tolerance included (its margin). Per point, the margins of the seeds are paired (the same seed "
        "of every column) and the 90 % interval of their mean is computed (a bootstrap of the mean of the "
        "seeds, `atmtcp.statistics.interval`). The point *agrees* when that interval lies on the claimed side, "
        "and *contradicts* when it lies wholly on the other. The claim holds when the share of points its words "
        "ask for agree (below). How many seeds, each read alone, show the whole claim is kept in each detail as "
        "information: for a claim over many points it is biased to fail, since one run must clear every point "
        "at once. Claims whose check gives no margins still read the mean and at least 70 % of the seeds; the "
        "`read_on` column of each `claims.csv` says which rule read each claim.",
        "",
        *count,
        "## What the papers' words mean here",
        "",
        "One table for all five documents (`atmtcp.words`); every claim that reads one of these words takes "
        "its number from it, and its detail gives the verdict at the other values too.",
        "",
        words.markdown_table(),
        "",
    ]


def rst_page(documents: pd.DataFrame, findings: pd.DataFrame, quick: bool = False) -> str:
    """The fidelity page as reStructuredText, for the first page of the HTML report (no ``|`` in
    the text: reST reads ``|x|`` as a substitution).

    Parameters
    ----------
    documents, findings : pandas.DataFrame
        As for :func:`page`.
    quick : bool
        Whether the results are the quick mode's.

    Returns
    -------
    str
    """
    from .figures import QUICK_STAMP, rst_table

    counts = findings.mark.value_counts().reindex([*MARKS, IDENTITY], fill_value=0)
    lines = ["Fidelity", "--------", ""]
    if quick:
        lines += [f"**{QUICK_STAMP}**", ""]
    lines += ["Every compared cell: our mean over seeds and a 90 % interval of the paper's statistic; *inside* counts "
              "the paper's values in it (about 90 % if the gaps were noise). Fractions in points, other quantities "
              "in % of the paper; model parameters echoed are not counted.", ""]
    lines += rst_table("per document", documents)
    lines += [f"Principal findings: {_counts_text(counts)} "
              "(figures/fidelity.md gives the evidence).", ""]
    for row in findings.itertuples():
        lines.append(f"* **{row.mark}**, {row.paper} ({row.where}): {row.finding.replace('|', '/')}")
    return "\n".join(lines) + "\n"


def collect(figures_dir, notebooks: dict[str, tuple[str, ...]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every notebook's ``comparison.csv`` and ``claims.csv`` under ``figures_dir``, concatenated.

    Parameters
    ----------
    figures_dir, notebooks
        As for :func:`collect_studies`.

    Returns
    -------
    tuple of pandas.DataFrame
        ``(comparisons, verdicts)``.
    """
    from pathlib import Path

    comparisons, verdicts = [], []
    for name in notebooks:
        folder = Path(figures_dir) / name
        comparisons.append(pd.read_csv(folder / "comparison.csv", low_memory=False))
        verdicts.append(pd.read_csv(folder / "claims.csv"))
    comparison = pd.concat(comparisons, ignore_index=True)
    comparison["inside"] = comparison.inside.map({True: True, False: False, "True": True, "False": False})
    return comparison, pd.concat(verdicts, ignore_index=True)
