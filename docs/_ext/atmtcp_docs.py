"""Pages of the documentation site generated from the package itself, so that they cannot drift from it.

Written into ``docs/generated/`` (untracked) when Sphinx starts, from what ``make reproduce`` left in
the tracked ``figures/`` (no simulation runs here):

- ``papers/<key>.md``: per paper, its principal findings with their verdicts, its figures and tables
  beside the paper's numbers, its claims, its TCP settings with the sentences they rest on, the sentences
  on how its TCP behaved with their measured values, and its hand-written modelling choices
  (``docs/modelling/<key>.md``);
- ``fidelity.md``: ``figures/fidelity.md``;
- ``targets.md``: every target id of the registry with its title and where its output is;
- ``artifacts.md``: every target's command, its CPU time and memory from the last full run's Snakemake
  benchmark files (``logs/benchmarks/``), and its output files;
- ``tcp-settings.md``: the table of the rule "what a paper leaves unsaid";
- ``quickstart.ipynb``: the class notebook, executed with papermill (short runs), for the tutorial page;
- ``atlas/``: the atlas's heat maps, conclusions table, recommendation and closing note from the tracked
  ``figures/atlas/`` (``make atlas``), and its parameter rule from :mod:`atmtcp.atlas.grid`, which
  ``docs/atlas.md`` includes;
- ``validation/``: the cross-check's table and figures from the tracked ``figures/validation/``
  (``make validate``), which ``docs/validation.md`` includes.
"""
from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
GENERATED = DOCS / "generated"
FIGURES = ROOT / "figures"

QUICKSTART_PARAMETERS = {"duration": 2.0, "sliders": False}
"""The notebook's own defaults, without the widgets (a static page cannot run them)."""


def _papers():
    import atmtcp.papers as papers
    return papers


def _write(path: Path, text: str) -> None:
    """Write only on change, so that Sphinx rebuilds only what changed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _fidelity_section(key: str) -> str:
    """The paper's section ``### <key>`` of ``figures/fidelity.md`` (its findings and their evidence)."""
    text = (FIGURES / "fidelity.md").read_text()
    match = re.search(rf"^### {re.escape(key)}\n(.*?)(?=^#{{2,3}} |\Z)", text, re.S | re.M)
    return match.group(1).strip() if match else "(no findings recorded in figures/fidelity.md)"


def _claims_rows(notebook: str, names: set[str]) -> str:
    """The rows of ``figures/<notebook>/claims.csv`` of the claims ``names``, as a Markdown table."""
    path = FIGURES / notebook / "claims.csv"
    if not path.exists():
        return "(no claims table: run `make reproduce`)"
    with path.open() as f:
        rows = [r for r in csv.DictReader(f) if r["claim"] in names]
    lines = ["| claim | passed | the paper says | what the runs show |", "|---|---|---|---|"]
    for r in rows:
        passed = "pass" if r["passed"] in ("True", "true", "1", "pass") else "FAIL"
        cells = [f"`{r['claim']}`", passed, r.get("quote", ""), r.get("detail", "")]
        lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
    return "\n".join(lines)


def _behaviour_section(key: str, notebook: str) -> str:
    """The paper's sentences on how its TCP behaved (``TCP_BEHAVIOUR``), each with the value the headline runs
    give and the other reading's, as the notebook wrote them (``figures/<notebook>/<key>.tcp_behaviour.md``)."""
    table = FIGURES / notebook / f"{key}.tcp_behaviour.md"
    intro = ("Each sentence in which the paper states how its simulated TCP behaved decides the settings named "
             "(marked \"paper (behaviour)\" above, `atmtcp.tcp_settings.BehaviourCheck`) and is measured on "
             "the headline runs (`measured`) and under the other reading (`other reading measured`).\n\n")
    return intro + (table.read_text().strip() if table.exists() else "(no table yet: run `make reproduce`)")


def _target_section(target: str, notebook: str, title: str) -> str:
    """One target: its title, figure and table as the full runs wrote them."""
    folder = FIGURES / notebook
    parts = [f"### `{target}`: {title}\n" if title != target else f"### `{target}`\n"]
    png = folder / f"{target}.png"
    if png.exists():
        copy = GENERATED / "figures" / notebook / png.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        if not copy.exists() or copy.stat().st_mtime < png.stat().st_mtime:
            shutil.copy2(png, copy)
        parts.append(f"```{{image}} ../figures/{notebook}/{png.name}\n:alt: {target}\n:width: 100%\n```\n")
    table = folder / f"{target}.md"
    if table.exists():
        parts.append(table.read_text().strip() + "\n")
    if len(parts) == 1:
        parts.append("Simulated as a dataset only (`data/results/" + target + ".nc`); the notebook reads it "
                     "for the claims and the comparison.\n")
    return "\n".join(parts)


DISAGREEMENTS = ("peer agrees with us", "peer agrees with the paper", "all differ")
"""The validation's verdicts of a row where our number is not the paper's (:data:`atmtcp.validation.compare.VERDICTS`)."""


def validation_rows(key: str) -> list[dict]:
    """The rows of the tracked ``figures/validation/validation.csv`` from scenarios of paper ``key``."""
    from atmtcp.validation.scenarios import SCENARIOS
    path = FIGURES / "validation" / "validation.csv"
    if not path.exists():
        return []
    with path.open() as f:
        return [r for r in csv.DictReader(f) if r["scenario"] in SCENARIOS and SCENARIOS[r["scenario"]].paper == key]


def _disagreements(rows: list[dict]) -> tuple[list[dict], str]:
    """The validation ``rows`` where our number is not the paper's, and how many of them carry each verdict."""
    differing = [r for r in rows if r["verdict"] in DISAGREEMENTS]
    return differing, ", ".join(f"{sum(r['verdict'] == v for r in differing)} {v}" for v in DISAGREEMENTS)


def _number(text: str) -> str:
    """A number of the CSV at three significant digits; a range or a word (the paper's "20-30") as it is."""
    try:
        return f"{float(text):.3g}" if text not in ("", "nan") else ""
    except ValueError:
        return text


def _validation_section(key: str) -> str:
    """The paper's disagreements that the second simulator looked at: each row where our number is not the
    paper's, with the peer's (ns-3's or YATS's) beside it; or "" where no scenario of the paper is cross-checked."""
    rows = validation_rows(key)
    if not rows:
        return ""
    differing, counts = _disagreements(rows)
    lines = [f"The [validation page](../../validation.md) runs {len(rows)} numbers of this paper's scenarios in "
             f"an independent simulator as well. In {len(differing)} of them our number is not the paper's "
             f"({counts}); those rows, with the paper's value, ours (mean and 90 % interval over our seeds) and "
             "the peer's:\n",
             "| scenario | cell | metric | paper | ours | peer | verdict |", "|---|---|---|---|---|---|---|"]
    for r in differing:
        ours = f"{_number(r['ours_mean'])} [{_number(r['ours_low'])}, {_number(r['ours_high'])}]"
        cells = [f"`{r['scenario']}`", r["cell"], r["metric"], _number(r["paper"]), ours,
                 f"{_number(r['peer_mean'])} ({r['peer']}, seeds: {r['peer_seeds']})", r["verdict"]]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def paper_page(key: str) -> str:
    """The page of one paper (see the module docstring)."""
    papers = _papers()
    from atmtcp import tcp_settings as ts
    paper = papers.PAPERS[key]
    notebook = paper.NOTEBOOK
    targets = list(dict.fromkeys([e.id for e in paper.EXPERIMENTS] + list(paper.FIGURE_TARGETS)))
    modelling = DOCS / "modelling" / f"{key}.md"
    sections = [
        f"# {key}\n",
        f"{papers.citation(key).removeprefix(key + ': ')}\n",
        f"Notebook: `notebooks/{notebook}.ipynb`; the paper's numbers: `data/reference/{key}.csv`; every number "
        f"beside ours: `figures/{notebook}/comparison.csv`. Everything below comes from the full runs of "
        "`make reproduce` (10 seeds per compared cell).\n",
        "## What the paper found, and what the runs show\n",
        "Each principal finding in the paper's words, marked by the claims behind it (the "
        "[fidelity page](../fidelity.md) explains the marks).\n",
        _fidelity_section(key) + "\n",
        "## Claims\n",
        _claims_rows(notebook, {c.name for c in paper.CLAIMS}) + "\n",
        "## The TCP, setting by setting\n",
        "Decided by the rule on the [modelling page](../../modelling.md): the paper's statement first, "
        "then 4.4BSD-Lite's implementation.\n",
        ts.sentences(paper.TCP_SETTINGS) + "\n",
    ]
    if getattr(paper, "TCP_BEHAVIOUR", None):
        sections += ["## What the paper says its TCP did, measured\n", _behaviour_section(key, notebook) + "\n"]
    if validation := _validation_section(key):
        sections += ["## A second simulator on the disagreements\n", validation]
    if modelling.exists():
        sections += ["## Modelling choices\n", modelling.read_text().strip() + "\n"]
    sections += ["## Figures and tables\n"]
    sections += [_target_section(t, notebook, papers.title_of(t)) for t in targets]
    return "\n".join(sections)


def papers_index() -> str:
    """The papers section: one page per paper of the registry, in its order (no list to edit)."""
    papers = _papers()
    entries = "\n".join(f"{key}" for key in papers.PAPERS)
    lines = ["# The papers\n", "One page per paper of the registry, in the papers' chronological reading order. "
             "How close each comes is summed up on the [fidelity page](../fidelity.md).\n",
             "| key | document |", "|---|---|"]
    lines += [f"| [{key}]({key}.md) | {papers.citation(key).removeprefix(key + ': ')} |" for key in papers.PAPERS]
    return "\n".join(lines) + f"\n\n```{{toctree}}\n:hidden:\n\n{entries}\n```\n"


def _target_ids(paper) -> list[str]:
    """A paper package's target ids, each once: its experiments, then the figures no experiment writes."""
    return list(dict.fromkeys([e.id for e in paper.EXPERIMENTS] + list(paper.FIGURE_TARGETS)))


def targets_page() -> str:
    """Every target id of the registry (what ``atmtcp list`` prints), with its output files."""
    papers = _papers()
    lines = ["# Every target\n",
             "Generated from the registry (`atmtcp.papers`); `atmtcp list` prints the same ids. A simulated "
             "target is written to `data/results/<id>.nc` by `atmtcp experiment <id>`; the notebook draws it "
             "into `figures/<notebook>/`.\n"]
    for key, paper in papers.PAPERS.items():
        lines += [f"## [{key}](papers/{key}.md)\n", "| target | title | simulated | figure | table |",
                  "|---|---|---|---|---|"]
        tables, figures = set(paper.TABLE_TARGETS), set(paper.FIGURE_TARGETS)
        for target in _target_ids(paper):
            simulated = "yes" if target in papers.EXPERIMENTS else "no"
            lines.append(f"| `{target}` | {papers.title_of(target)} | {simulated} | "
                         f"{'yes' if target in figures else ''} | {'yes' if target in tables else ''} |")
        lines.append("")
    return "\n".join(lines)


BENCHMARKS = ROOT / "logs" / "benchmarks"
"""Snakemake's ``benchmark:`` files of the full runs (rules/common.smk ``BENCHMARKS``; quick runs write theirs
under ``quick/``): ``experiments/<id>.tsv`` and ``notebooks/<name>.tsv``."""


def benchmark(path: Path) -> dict | None:
    """One job's CPU seconds, wall seconds and peak memory (MB) from its Snakemake benchmark file, or None
    if there is none. The memory is the proportional set size (PSS) summed over the job's processes, so
    that the pages a worker shares with its parent count once; the resident set size where PSS is missing."""
    if not path.is_file():
        return None
    with path.open() as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows:
        return None
    row = rows[-1]

    def number(key):
        try:
            return float(row.get(key, "NA"))
        except ValueError:
            return None
    memory = number("max_pss") or number("max_rss")
    return {"cpu_s": number("cpu_time"), "wall_s": number("s"), "memory_mb": memory}


def _cost(path: Path) -> str:
    """``CPU s | wall s | MB`` cells of a benchmark file, or "not yet measured"."""
    measured = benchmark(path)
    if measured is None:
        return "not yet measured | | "
    return " | ".join("" if v is None else f"{v:,.0f}" for v in (measured["cpu_s"], measured["wall_s"],
                                                                   measured["memory_mb"]))


def _outputs(papers, target: str) -> list[str]:
    """The files a target's experiment and its notebook write (rules/common.smk ``target_outputs``)."""
    key = papers.paper_of(target)
    paper = papers.PAPERS[key]
    files = [f"data/results/{target}.nc"] if target in papers.EXPERIMENTS else []
    files += [f"figures/{key}/{target}.{ext}" for ext in ("md", "csv") if target in paper.TABLE_TARGETS]
    files += [f"figures/{key}/{target}.png"] if target in paper.FIGURE_TARGETS else []
    return files


def artifacts_page(benchmarks: Path = BENCHMARKS) -> str:
    """Every target of ``make reproduce``: the command that makes it, the CPU time, wall time and peak memory
    the last full run measured on this checkout, and its output files (for artifact evaluation)."""
    papers = _papers()
    lines = ["# Every target: command, cost and files\n",
             "Generated from the registry (`atmtcp.papers`) and from the Snakemake `benchmark:` files that the "
             "last full `make reproduce` of this checkout left in `logs/benchmarks/` (untracked; `make reproduce` "
             "runs 2 worker processes per experiment on `CORES=2`). A target without a file says "
             "\"not yet measured\": no number here is typed in. CPU time and memory are summed over the job's "
             "processes (memory as the proportional set size, so that shared pages count once). A derived "
             "target (e.g. `goyal1998.table2`) only reads its parents' files. The figures and tables come "
             "from the paper's notebook, run by `make reproduce` after the experiments (the second table).\n"]
    for key, paper in papers.PAPERS.items():
        lines += [f"## {key}\n", "| target | command | CPU s | wall s | memory, MB | output files |",
                  "|---|---|---|---|---|---|"]
        for target in _target_ids(paper):
            if target in papers.EXPERIMENTS:
                command, cost = f"`atmtcp experiment {target}`", _cost(benchmarks / "experiments" / f"{target}.tsv")
            else:
                command, cost = f"`notebooks/{paper.NOTEBOOK}.ipynb`", "(in its notebook) | | "
            files = "<br>".join(f"`{f}`" for f in _outputs(papers, target))
            lines.append(f"| `{target}` | {command} | {cost} | {files} |")
        lines.append("")
    lines += ["## The notebooks\n", "| notebook | command | CPU s | wall s | memory, MB | output files |",
              "|---|---|---|---|---|---|"]
    for name, keys in {**papers.notebooks(), "fidelity": ()}.items():
        outputs = [f"figures/{key}/" for key in keys] or ["figures/fidelity.md"]
        lines.append(f"| `notebooks/{name}.ipynb` | `make reproduce` (papermill) | "
                     f"{_cost(benchmarks / 'notebooks' / f'{name}.tsv')} | "
                     f"{'<br>'.join(f'`{o}`' for o in outputs + [f'notebooks/executed/{name}.ipynb'])} |")
    return "\n".join(lines) + "\n"


def tcp_settings_page() -> str:
    """The rule's table: every TCP setting of every paper, marked stated or BSD."""
    from atmtcp import tcp_settings as ts
    return ts.markdown_table(_papers().tcp_settings()) + "\n"


def fidelity_page() -> str:
    """``figures/fidelity.md`` with each paper's heading linked to its page; its per-document table (12
    columns) in a ``wide-table`` container (docs/_static/atmtcp.css), on a page without the right sidebar, so
    that it fits a 1400-pixel window whole."""
    text = (FIGURES / "fidelity.md").read_text()
    text = re.sub(r"^### (\w+)$", lambda m: f"### [{m.group(1)}](papers/{m.group(1)}.md)", text, flags=re.M)
    text = re.sub(r"^(\|.*\|\n)+", lambda m: f"```{{container}} wide-table\n{m.group(0)}```\n", text, count=1,
                  flags=re.M)
    return "---\nhtml_theme.sidebar_secondary.remove: true\n---\n" + text + _validation_summary()


def _validation_summary() -> str:
    """Per paper, how many of its disagreements the second simulator looked at, and what it said, linked to
    the paper page's rows."""
    lines = []
    for key in _papers().PAPERS:
        differing, counts = _disagreements(validation_rows(key))
        if differing:
            lines.append(f"- [{key}](papers/{key}.md#a-second-simulator-on-the-disagreements): {len(differing)} "
                         f"number{'s' if len(differing) != 1 else ''} where ours is not the paper's, run in a second "
                         f"simulator too: {counts}.")
    if not lines:
        return ""
    return ("\n## A second simulator on the disagreements\n\nWhose number is wrong, ours or the paper's? The "
            "[validation page](../validation.md) runs some of the papers' scenarios in ns-3 and YATS beside our "
            "kernel (method, tolerances and what each peer cannot express are there):\n\n" + "\n".join(lines) + "\n")


def quickstart_notebook() -> None:
    """Execute the quickstart with papermill into ``generated/quickstart.ipynb`` (once per change of the
    notebook or of its parameters; about 30 s)."""
    source = ROOT / "notebooks" / "quickstart.ipynb"
    target = GENERATED / "quickstart.ipynb"
    stamp = GENERATED / "quickstart.stamp"
    key = json.dumps([source.read_text(), QUICKSTART_PARAMETERS], sort_keys=True)
    if target.exists() and stamp.exists() and stamp.read_text() == key:
        return
    import papermill
    target.parent.mkdir(parents=True, exist_ok=True)
    papermill.execute_notebook(str(source), str(target), parameters=QUICKSTART_PARAMETERS,
                               cwd=str(ROOT / "notebooks"), kernel_name="python3", progress_bar=False)
    notebook = json.loads(target.read_text())
    for cell in notebook["cells"]:   # the page shows the notebook's own parameters cell, not papermill's
        tags = cell.get("metadata", {}).get("tags", [])
        if "injected-parameters" in tags:
            cell["metadata"]["tags"] = tags + ["remove-cell"]
    notebook["cells"].insert(1, {"cell_type": "markdown", "id": "rendered-for-the-docs", "metadata": {}, "source": [
        "```{note}\nThis page is `notebooks/quickstart.ipynb` as it ran for the documentation, with its own "
        "parameters but without the sliders of section 6 (a static page cannot run them). Open the notebook "
        "in JupyterLab to change things and run them yourself.\n```"]})
    target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False))
    stamp.write_text(key)


ATLAS_PARTS = ("conclusions", "recommendation", "closing_note")
ATLAS_MAPS = ("efficiency", "fairness", "loss", "timeouts_per_connection")


def _copy_newer(png: Path, folder: Path) -> None:
    """Copy ``png`` (a tracked figure) into ``folder`` when it exists and the copy is missing or older."""
    copy = folder / png.name
    copy.parent.mkdir(parents=True, exist_ok=True)
    if png.exists() and (not copy.exists() or copy.stat().st_mtime < png.stat().st_mtime):
        shutil.copy2(png, copy)


def atlas_parts() -> None:
    """``generated/atlas/``: the tracked ``figures/atlas/`` heat maps (copied) and tables, and the rule for
    the parameters a scenario's paper does not give (docs/atlas.md includes them)."""
    from atmtcp.atlas import grid, experiments

    folder = FIGURES / "atlas"
    for name in ATLAS_MAPS:
        _copy_newer(folder / f"atlas.{name}.png", GENERATED / "atlas")
    for name in ATLAS_PARTS:
        path = folder / f"atlas.{name}.md"
        _write(GENERATED / "atlas" / f"{name}.md", path.read_text() if path.exists() else
               "(not yet built: run `make atlas`)\n")
    scenarios = ["| scenario | paper | layer | connections | what |", "|---|---|---|---|---|"]
    scenarios += [f"| `{s.key}` | {s.paper} | {s.layer} | {s.connections} | {s.title} |" for s in grid.SCENARIOS.values()]
    _write(GENERATED / "atlas" / "grid.md", "\n".join(scenarios) + "\n\n" + f"Seeds per cell: {len(experiments.SEEDS)} "
           f"in full mode. Policies at the cell ports: {', '.join(grid.LABELS[p] for p in grid.CELL_POLICIES)}; at "
           f"the access point: {', '.join(grid.LABELS[p] for p in grid.PACKET_POLICIES)}. TCPs: "
           f"{', '.join(grid.TCP_LABELS[t] for t in grid.TCPS)}.\n\n**The rule for missing parameters.** "
           f"{grid.PARAMETER_RULE}\n")


def validation_parts() -> None:
    """``generated/validation/``: the tracked ``figures/validation/`` table and figures (docs/validation.md
    includes them)."""
    from atmtcp.validation.scenarios import SCENARIOS

    folder = FIGURES / "validation"
    for key in SCENARIOS:
        _copy_newer(folder / f"validation.{key}.png", GENERATED / "validation")
    table = folder / "validation.md"
    _write(GENERATED / "validation" / "table.md", table.read_text() if table.exists() else
           "(not yet built: run `make validate`)\n")


def generate(app=None) -> None:
    """Write every generated page (Sphinx calls this at ``builder-inited``)."""
    papers = _papers()
    for key in papers.PAPERS:
        _write(GENERATED / "papers" / f"{key}.md", paper_page(key))
    _write(GENERATED / "papers" / "index.md", papers_index())
    _write(GENERATED / "targets.md", targets_page())
    _write(GENERATED / "artifacts.md", artifacts_page())
    _write(GENERATED / "tcp-settings.md", tcp_settings_page())
    _write(GENERATED / "fidelity.md", fidelity_page())
    atlas_parts()
    validation_parts()
    quickstart_notebook()


def setup(app):
    app.connect("builder-inited", generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
