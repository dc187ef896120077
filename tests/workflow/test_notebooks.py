"""The notebooks: stored clean, and executed in quick mode end to end."""
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CELL_TIMEOUT_S = 900
"""A cell that takes longer fails the test instead of hanging the suite (quick cells take seconds)."""
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_without_outputs(path):
    """Notebooks are committed without outputs, with a papermill parameters cell and kernel python3."""
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code)
    assert any("parameters" in c.get("metadata", {}).get("tags", []) for c in code)
    assert nb["metadata"]["kernelspec"]["name"] == "python3"


def run_in_quick_mode(notebook: str, tmp_path: Path) -> Path:
    """Execute ``notebooks/<notebook>.ipynb`` with papermill in quick mode into ``tmp_path``;
    returns its figures folder."""
    papermill = pytest.importorskip("papermill")
    results, figures = tmp_path / "results", tmp_path / "figures"
    papermill.execute_notebook(
        str(ROOT / "notebooks" / f"{notebook}.ipynb"), str(tmp_path / "out.ipynb"),
        parameters={"results_dir": str(results), "figures_dir": str(figures), "quick": True},
        cwd=str(ROOT / "notebooks"), kernel_name="python3", progress_bar=False,
        execution_timeout=CELL_TIMEOUT_S,
    )
    return figures


@pytest.mark.slow
def test_goyal1998_notebook_runs_in_quick_mode(tmp_path):
    """The goyal1998 notebook runs its quick mode and writes figures, tables, claims and the comparison."""
    figures = run_in_quick_mode("goyal1998", tmp_path)
    paper = figures / "goyal1998"
    for name in ("claims.md", "comparison.csv", "goyal1998.table1.md", "goyal1998.fig5.png",
                 "goyal1998.sack_bound.png", "goyal1998.fba_factorial.png", "goyal1998.ubr_sensitivity.png",
                 "claims.html", "comparison.html", "summary.rst", "goyal1998.tcp_behaviour.md"):
        assert (paper / name).exists(), name
    summary = (paper / "summary.rst").read_text()
    assert "QUICK MODE" in summary and "claims:" in summary and "goyal1998.table8" in summary
    assert "QUICK MODE" in (paper / "goyal1998.table1.md").read_text()
    assert (figures / "goyal1997" / "goyal1997.cwnd_integer_stall.png").exists()
    assert (figures / "goyal1997" / "goyal1997.satellite_efficiency.md").exists()


@pytest.mark.slow
def test_quickstart_notebook_runs_in_under_a_minute(tmp_path):
    """The class notebook runs end to end with short runs (issue 7: under a minute). Section 6 runs
    without its sliders: nbclient can wait forever on a cell that opens widgets (this hung CI). Every
    direction its prose states ("What to look for") holds in the tables its cells display (issue 26)."""
    import time
    papermill = pytest.importorskip("papermill")
    start = time.monotonic()
    papermill.execute_notebook(
        str(ROOT / "notebooks" / "quickstart.ipynb"), str(tmp_path / "quickstart.ipynb"),
        parameters={"duration": 1.0, "sliders": False}, cwd=str(ROOT / "notebooks"), kernel_name="python3",
        progress_bar=False, execution_timeout=CELL_TIMEOUT_S,
    )
    assert time.monotonic() - start < 60
    executed = json.loads((tmp_path / "quickstart.ipynb").read_text())
    images = sum("image/png" in o.get("data", {}) for c in executed["cells"] for o in c.get("outputs", []))
    assert images >= 4  # section 1, the two phase-lock runs and section 6's explore() (no sliders here)
    tables = [table for cell in executed["cells"] for table in displayed_tables(cell)]
    one, buffers, policies, flavours, contention, turn = tables  # sections 1-5 and 6's run, in order
    # section 6: the run the sliders choose (here their defaults) shows its numbers beside its windows and queue
    assert set(turn) >= {"efficiency", "fairness", "timeouts", "max_queue_cells"} and 0 < turn["efficiency"]["this run"] < 1
    # section 1: "The queue never reaches 1000 cells: EPD refuses new packets above 800."; each source halves
    # its window (fast retransmit) "or, after several losses, waits for its 100 ms timer"
    one = one["value"]
    assert one["max_queue_cells"] < 1000 and one["fast_retransmits"] > 0 and one["timeouts"] > 0
    # section 2: "A small buffer ... efficiency is low. A buffer as large as the sum of the windows (5 x 64 KB,
    # about 7600 cells) loses nothing"
    efficiency = [buffers["efficiency"][b] for b in ("300", "1000", "3000", "8000")]
    assert efficiency == sorted(efficiency) and efficiency[0] < 0.2
    assert buffers["cells_dropped"]["8000"] == 0 and round(buffers["max_queue_cells"]["8000"], -2) == 7600
    # section 3: "Dropping whole packets instead of single cells raises efficiency and fairness above tail drop's."
    assert min(policies["efficiency"][p] for p in ("epd", "selective_drop", "fba")) > policies["efficiency"]["tail"]
    assert min(policies["fairness"][p] for p in ("epd", "selective_drop", "fba")) > policies["fairness"]["tail"]
    # section 4: New Reno and SACK "time out less than vanilla and Reno, and their efficiency is the highest"
    repairing, waiting = ("newreno", "sack"), ("vanilla", "reno")
    assert max(flavours["timeouts"][t] for t in repairing) < min(flavours["timeouts"][t] for t in waiting)
    assert min(flavours["efficiency"][t] for t in repairing) > max(flavours["efficiency"][t] for t in waiting)
    # section 5: "Deterministic: one source gets almost everything (top_source_share near 1, fairness near 1/5),
    # and since it keeps sending, the link stays busy. Slotted: no source keeps the buffer, every source loses
    # cells (sources_with_drops), and vanilla TCP makes each of them wait for its timer (sources_with_timeouts):
    # fairness is higher, but the link carries little"
    deterministic, slotted = ({k: v[row] for k, v in contention.items()} for row in ("deterministic", "slotted"))
    assert deterministic["top_source_share"] > 0.9 and abs(deterministic["fairness"] - 1 / 5) < 0.05
    assert slotted["top_source_share"] < 0.5 and slotted["fairness"] > deterministic["fairness"]
    assert slotted["sources_with_drops"] == slotted["sources_with_timeouts"] == 5
    assert slotted["efficiency"] < 0.25 and slotted["efficiency"] < deterministic["efficiency"] / 2


def displayed_tables(cell) -> list[dict[str, dict[str, float]]]:
    """The DataFrames an executed cell displayed, from their HTML, each as {column: {row: value}} (the
    values as displayed: rounded to the notebook's display precision)."""
    from html.parser import HTMLParser

    class Rows(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.cell = [], None

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                self.rows.append([])
            elif tag in ("th", "td"):
                self.cell = ""

        def handle_endtag(self, tag):
            if tag in ("th", "td"):
                self.rows[-1].append(self.cell.strip())
                self.cell = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data

    tables = []
    for output in cell.get("outputs", []):
        html = "".join(output.get("data", {}).get("text/html", []))
        if "<table" not in html:
            continue
        parser = Rows()
        parser.feed(html)
        columns = parser.rows[0][1:]
        body = [row for row in parser.rows[1:] if any(row[1:])]  # skips the index name's row
        tables.append({column: {row[0]: float(row[i + 1]) for row in body} for i, column in enumerate(columns)})
    return tables


@pytest.mark.slow
def test_cheon_notebook_runs_in_quick_mode(tmp_path):
    """The cheon notebook runs its quick mode and writes every cheon target, the claims and the comparison."""
    figures = run_in_quick_mode("cheon", tmp_path)
    paper = figures / "cheon"
    names = [f"cheon.table{n}.{ext}" for n in range(1, 6) for ext in ("md", "csv", "png")]
    names += [f"cheon.fig{n}.png" for n in range(2, 13)]
    names += ["claims.md", "claims.csv", "comparison.csv", "claims.html", "comparison.html", "summary.rst"]
    names += ["cheon.espd_hold_study.png", "cheon.espd_hold_study.md", "cheon.espd_readings.md",
              "cheon.eom_study.png", "cheon.eom_study.md", "studies.csv", "cheon.tcp_behaviour.md",
              "cheon.opnet_timer_study.md"]
    for name in names:
        assert (paper / name).exists(), name
    assert "QUICK MODE" in (paper / "cheon.table1.md").read_text()
    assert "claims:" in (paper / "summary.rst").read_text()


@pytest.mark.slow
def test_ewa_notebook_runs_in_quick_mode(tmp_path):
    """The ewa notebook runs its quick mode and writes every target of sections 2-4 (Figs. 2-39), our two
    studies, the claims and the comparison."""
    figures = run_in_quick_mode("ewa", tmp_path)
    paper = figures / "ewa"
    names = [f"ewa.fig{n}.png" for n in range(2, 40)] + ["ewa.fig4.md", "ewa.fig4.csv", "ewa.tcp_sensitivity.png",
                                                         "ewa.tcp_sensitivity.md", "ewa.fig13.md", "ewa.fig13.csv",
                                                         "ewa.ssthresh_study.png", "ewa.red_study.png", "ewa.red_study.md",
                                                         "ewa.two_way_study.png", "ewa.two_way_study.md",
                                                         "ewa.regime.md", "ewa.tcp_behaviour.md",
                                                         "ewa.opnet_timer_study.png", "ewa.opnet_timer_study.md"]
    names += ["claims.md", "claims.csv", "comparison.csv", "claims.html", "comparison.html", "summary.rst"]
    for name in names:
        assert (paper / name).exists(), name
    assert "QUICK MODE" in (paper / "ewa.fig4.md").read_text()
    assert "claims:" in (paper / "summary.rst").read_text()


@pytest.mark.slow
def test_lakshman_notebook_runs_in_quick_mode(tmp_path):
    """The lakshman notebook runs its quick mode and writes every lakshman target, the claims and the comparison."""
    figures = run_in_quick_mode("lakshman", tmp_path)
    paper = figures / "lakshman"
    names = [f"lakshman.fig{n}.png" for n in range(2, 15)]
    names += [f"lakshman.fig{n}.{ext}" for n in (2, 3, 6, 7, 10, 11, 12, 13, 14) for ext in ("md", "csv")]
    names += ["lakshman.early_warning.png", "lakshman.convergence.png", "lakshman.tcp_sensitivity.png",
              "lakshman.tcp_sensitivity.md", "lakshman.tcp_behaviour.md"]
    names += [f"lakshman.{study}.{ext}" for study in ("beta_requirements", "buffer_study") for ext in ("png", "md", "csv")]
    names += ["studies.csv"]  # the studies' one-line findings, for the fidelity page
    names += ["claims.md", "claims.csv", "comparison.csv", "claims.html", "comparison.html", "summary.rst"]
    for name in names:
        assert (paper / name).exists(), name
    assert "QUICK MODE" in (paper / "lakshman.fig2.md").read_text()
    assert "claims:" in (paper / "summary.rst").read_text()


def test_fidelity_notebook_writes_the_page(tmp_path):
    """notebooks/fidelity.ipynb reads every paper notebook's comparison.csv and claims.csv (here the
    tracked full results) and writes figures/fidelity.md, .csv and .rst."""
    import shutil

    papermill = pytest.importorskip("papermill")
    from atmtcp.papers import notebooks

    for name in notebooks():
        (tmp_path / name).mkdir()
        for file in ("comparison.csv", "claims.csv", "studies.csv"):
            if (ROOT / "figures" / name / file).exists():
                shutil.copy(ROOT / "figures" / name / file, tmp_path / name / file)
    papermill.execute_notebook(
        str(ROOT / "notebooks" / "fidelity.ipynb"), str(tmp_path / "out.ipynb"),
        parameters={"figures_dir": str(tmp_path), "quick": False}, cwd=str(ROOT / "notebooks"),
        kernel_name="python3", progress_bar=False, execution_timeout=CELL_TIMEOUT_S)
    page = (tmp_path / "fidelity.md").read_text()
    assert "| goyal1998 |" in page and "| ewa |" in page and "Principal findings" in page
    assert page == (ROOT / "figures" / "fidelity.md").read_text()  # the tracked page is what it regenerates
    assert (tmp_path / "fidelity.csv").exists() and "Fidelity" in (tmp_path / "fidelity.rst").read_text()


def test_git_strips_outputs_from_notebooks_on_add(tmp_path):
    """A clone stays clean (issue 26): ``.gitattributes`` sends every notebook through
    ``scripts/strip_notebook.py`` (``make setup`` configures the filter), which gives back each stored
    notebook unchanged and removes what running one adds."""
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    assert "notebooks/*.ipynb filter=strip-notebook-outputs" in (root / ".gitattributes").read_text()
    assert "filter.strip-notebook-outputs.clean" in (root / "Makefile").read_text()
    script = [sys.executable, str(root / "scripts" / "strip_notebook.py")]
    for path in sorted((root / "notebooks").glob("*.ipynb")):
        stored = path.read_text()
        assert subprocess.run(script, input=stored, capture_output=True, text=True, check=True).stdout == stored
        ran = json.loads(stored)
        for cell in ran["cells"]:
            if cell["cell_type"] == "code":
                cell["execution_count"] = 7
                cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["x\n"]}]
        stripped = subprocess.run(script, input=json.dumps(ran), capture_output=True, text=True, check=True).stdout
        assert stripped == stored, path.name


def test_quickstart_your_turn_keeps_epd_honest():
    """Section 6's buffer slider starts where EPD's default threshold (buffer - 200 cells) is the model's own,
    not clamped (issue 40: a 200-cell EPD buffer from Python ran with a 1-cell threshold), and its questions
    ask for no buffer below the slider's."""
    import re
    from atmtcp import model as m
    cells = json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text())["cells"]
    turn = next(i for i, c in enumerate(cells) if "".join(c["source"]).startswith("## 6. Your turn"))
    prose, code = "".join(cells[turn]["source"]), "".join(cells[turn + 1]["source"])
    lowest = int(re.search(r"buffer=widgets.IntSlider\([^)]*min=(\d+)", code).group(1))
    assert m.DropPolicy("epd").resolved_threshold(lowest) == lowest - 200 > 0
    questions = prose.split("The buffer slider starts")[0]
    buffers = [int(b) for b in re.findall(r"(?:Set|at) (\d+) cells", questions)]
    assert buffers and min(buffers) >= lowest


@pytest.mark.slow
def test_quickstart_your_turn_has_answers_in_every_seed():
    """The orders section 6's questions 1, 3 and 4 lead to hold in seeds 0, 1 and 2 of the notebook's own
    2-second runs, so that a student's answer does not hang on the seed (issue 40): EPD beats tail drop at
    300 cells; with 15 sources Selective Drop stays fair in every seed while EPD does not; SACK times out
    less than Reno and carries more."""
    from atmtcp.explore import lan_run, summary

    def runs(**settings):
        return [summary(lan_run(duration=2.0, seed=seed, **settings)) for seed in (0, 1, 2)]
    tail, epd = runs(buffer=300, policy="tail", tcp="reno"), runs(buffer=300, policy="epd", tcp="reno")
    assert all(e["efficiency"] > t["efficiency"] for e, t in zip(epd, tail))
    assert all(e["max_queue_cells"] < t["max_queue_cells"] for e, t in zip(epd, tail))
    sd, epd15 = runs(sources=15, policy="selective_drop"), runs(sources=15, policy="epd")
    assert min(r["fairness"] for r in sd) > 0.8 > min(r["fairness"] for r in epd15)
    reno, sack = runs(tcp="reno"), runs(tcp="sack")
    assert all(s["timeouts"] < r["timeouts"] and s["efficiency"] > r["efficiency"] for s, r in zip(sack, reno))
