"""The documentation site's generated pages (docs/_ext/atmtcp_docs.py) and the README as a user's guide.

The site itself is built and opened in a browser by `make docs` and `make test-docs` (CI runs both);
these tests check, without Sphinx, that the generated pages hold what the package and figures/ hold."""
import re
import sys
from pathlib import Path

import pytest

import atmtcp.papers as papers
from atmtcp import tcp_settings as ts

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import atmtcp_docs  # noqa: E402


@pytest.mark.parametrize("key", list(papers.PAPERS))
def test_a_paper_page_shows_every_target_its_settings_and_findings(key):
    """Every target of the paper has a section; every figure the full runs drew is shown; each TCP
    setting is listed with its sentence; the findings are the paper's section of figures/fidelity.md."""
    page = atmtcp_docs.paper_page(key)
    paper = papers.PAPERS[key]
    for target in [e.id for e in paper.EXPERIMENTS] + list(paper.FIGURE_TARGETS):
        assert f"### `{target}`" in page, target
        if (ROOT / "figures" / paper.NOTEBOOK / f"{target}.png").exists():
            assert f"/{target}.png" in page, target
    for setting in paper.TCP_SETTINGS:
        assert f"`{setting.field}` = " in page
    assert atmtcp_docs._fidelity_section(key) in page and "no findings recorded" not in page


def test_the_settings_table_is_the_records():
    """The modelling page includes the generated table, which is tcp_settings.markdown_table's."""
    assert "{include} generated/tcp-settings.md" in (ROOT / "docs" / "modelling.md").read_text()
    assert ts.markdown_table(papers.tcp_settings()) in atmtcp_docs.tcp_settings_page()


def test_the_targets_page_lists_the_registry():
    page = atmtcp_docs.targets_page()
    for target in papers.EXPERIMENTS:
        assert f"| `{target}` |" in page


def test_readme_is_a_short_users_guide():
    """README.md: at most 200 lines, and every file it links to exists in the repository."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    for link in re.findall(r"\]\(([^)#]+)\)", readme):
        if not link.startswith("http"):
            assert (ROOT / link).exists(), link


def test_readme_quotes_the_generated_fidelity_table():
    """The README's results table is the one `make reproduce` wrote into figures/fidelity.md, line for
    line (no number typed in by hand)."""
    page = [line for line in (ROOT / "figures" / "fidelity.md").read_text().splitlines() if line.startswith("|")]
    per_document = page[:2 + len(papers.PAPERS)]
    assert "\n".join(per_document) in (ROOT / "README.md").read_text()


def test_readme_targets_column_is_the_registrys():
    """The README's table of papers gives each paper's targets as the registry has them (issue 40: it said
    goyal1998 "Tables 1-8" while `atmtcp list` has Table 9)."""
    readme = (ROOT / "README.md").read_text()
    for key in papers.PAPERS:
        row = next(line for line in readme.splitlines() if line.startswith(f"| {key} |"))
        assert row.rstrip().endswith(f"| {papers.targets_summary(key)} |"), row


def test_targets_summary_counts_every_target():
    assert papers._numbers([7, 1, 2, 3, 5, 6, 9]) == "1-3, 5-7, 9"
    summary = papers.targets_summary("goyal1998")
    assert summary.startswith("Tables 1-9, ")
    ids = set(papers.targets_of("goyal1998")) | set(papers.PAPERS["goyal1998"].FIGURE_TARGETS)
    numbered = {t for t in ids if re.fullmatch(r"goyal1998\.(table|fig)\d+", t)}
    assert summary.endswith(f", {len(ids - numbered)} more")


def code_blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


def efficiency_and_fairness(printed: str) -> tuple[str, str]:
    """The efficiency and fairness a run printed, as ``atmtcp run`` rounds them (3 decimals)."""
    cli = re.search(r"efficiency (\d\.\d+) .*fairness (\d\.\d+)", printed)
    if cli:
        return cli.group(1), cli.group(2)
    efficiency, fairness = (float(x) for x in printed.split())
    return f"{efficiency:.3f}", f"{fairness:.3f}"


@pytest.mark.parametrize("page, heading", [("README.md", "From Python, as an `xarray.Dataset`"),
                                           ("docs/getting-started.md", "## From Python")])
def test_the_python_example_prints_what_its_command_line_prints(page, heading, capsys):
    """The page's Python example and the `atmtcp run` command its text names give the same efficiency and
    fairness (issue 40: a plain TcpConfig("sack") starts SACK's PIPE at CWND - 3, the command line's at CWND)."""
    from atmtcp.cli import main
    section = (ROOT / page).read_text().split(heading, 1)[1]
    command = " ".join(re.search(r"`atmtcp (run [^`]+)`", section).group(1).split())
    assert main(command.split()) == 0
    cli = efficiency_and_fairness(capsys.readouterr().out)
    exec(code_blocks(section, "python")[0], {})
    assert efficiency_and_fairness(capsys.readouterr().out) == cli


@pytest.mark.slow
def test_reading_a_result_file_works_after_its_quick_commands(tmp_path, monkeypatch):
    """getting-started's "Reading a result file", in a folder without results: its quick commands say where
    their files went, and its Python code then runs (issue 40)."""
    import subprocess
    import matplotlib
    matplotlib.use("Agg")
    section = (ROOT / "docs" / "getting-started.md").read_text().split("**Reading a result file.**", 1)[1]
    commands, python = code_blocks(section, "bash")[0], code_blocks(section, "python")[0]
    script = Path(sys.executable).with_name("atmtcp")
    for line in commands.splitlines():
        args = line.split("#")[0].split()
        assert args[:2] == ["atmtcp", "experiment"] and "--quick" in args, line
        done = subprocess.run([str(script), *args[1:]], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        written = f"data/results/quick/{args[2]}.nc"
        assert f"written to {written}" in done.stdout and (tmp_path / written).is_file()
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(python, namespace)
    assert namespace["t1"].attrs["mode"] == "quick" and namespace["stall"].cwnd.sizes["time"] > 1


def test_the_artifacts_page_reads_the_benchmark_files(tmp_path):
    """Every simulated target has its command and output file; its CPU time, wall time and memory come from
    its Snakemake benchmark file, and a target without one says "not yet measured" (issue 40)."""
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "goyal1998.table1.tsv").write_text(
        "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
        "61.5\t0:01:01\t900.2\t3000\t700\t650.4\t1\t2\t180\t121.7\n")
    page = atmtcp_docs.artifacts_page(tmp_path)
    for target in papers.EXPERIMENTS:
        assert f"| `{target}` | `atmtcp experiment {target}` |" in page and f"`data/results/{target}.nc`" in page
    row = next(line for line in page.splitlines() if line.startswith("| `goyal1998.table1` |"))
    assert "| 122 | 62 | 650 |" in row and "`figures/goyal1998/goyal1998.table1.png`" in row
    row = next(line for line in page.splitlines() if line.startswith("| `goyal1998.table4` |"))
    assert "not yet measured" in row


def test_paper_pages_and_the_fidelity_page_show_the_second_simulators_rows(tmp_path, monkeypatch):
    """Issue 37: each paper's page lists the rows of the validation table where our number is not the paper's,
    with the peer's; the fidelity page counts them per paper and links there. A paper no scenario cross-checks
    has no such section."""
    from atmtcp.validation.scenarios import SCENARIOS
    table = tmp_path / "validation" / "validation.csv"
    table.parent.mkdir()
    header = "scenario,cell,metric,paper,ours_mean,ours_low,ours_high,peer_mean,peer,peer_seeds,verdict\n"
    goyal = next(k for k, s in SCENARIOS.items() if s.paper == "goyal1998")
    table.write_text(header + f"{goyal},lan N=5,efficiency,0.21,0.5,0.4,0.6,0.52,ns-3 3.44,10,peer agrees with us\n"
                     f"{goyal},lan N=15,efficiency,0.22,0.23,0.2,0.25,0.23,ns-3 3.44,10,all three agree\n")
    (tmp_path / "fidelity.md").write_text((atmtcp_docs.FIGURES / "fidelity.md").read_text())
    monkeypatch.setattr(atmtcp_docs, "FIGURES", tmp_path)
    section = atmtcp_docs._validation_section("goyal1998")
    assert "runs 2 numbers" in section and "In 1 of them" in section and "1 peer agrees with us" in section
    assert "lan N=5" in section and "0.52 (ns-3 3.44, seeds: 10)" in section and "lan N=15" not in section
    assert atmtcp_docs._validation_section("cheon") == ""
    summary = atmtcp_docs._validation_summary()
    assert "[goyal1998](papers/goyal1998.md#a-second-simulator-on-the-disagreements): 1 number where" in summary
    assert "cheon" not in summary and summary in atmtcp_docs.fidelity_page()
