"""The documentation site's generated pages (docs/_ext/atmtcp_docs.py) and the README as a user's guide.

The site itself is built and opened in a browser by `make docs` and `make test-docs` (CI runs both);
these tests check, without Sphinx, that the generated pages hold what the package and figures/ hold."""
import re
import sys
from pathlib import Path

import pytest

import atmtcp.papers as papers
from atmtcp import tcp_settings as ts

ROOT = Path(__file__).resolve().parents[1]
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
