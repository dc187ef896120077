"""atmtcp.fidelity: the fidelity page's marks follow the claims' verdicts; its numbers follow the
comparison tables (model parameters never count, kinds never mix)."""
from __future__ import annotations

import pandas as pd

from atmtcp import fidelity, papers
from atmtcp.fidelity import Finding

VERDICTS = pd.DataFrame({"claim": ["a", "b", "c"], "paper": ["goyal1998", "goyal1998", "cheon"],
                         "passed": [True, False, True], "detail": ["A ok", "B off", "C ok"]})


def test_marks_follow_the_claims():
    """Every claim passes: reproduced; some: partly; none, or a missing claim: not."""
    assert fidelity.mark(Finding("goyal1998", "q", "s", ("a", "c")), VERDICTS)[0] == "reproduced"
    label, evidence = fidelity.mark(Finding("goyal1998", "q", "s", ("a", "b")), VERDICTS)
    assert label == "partly" and "`a` passes: A ok" in evidence and "`b` fails: B off" in evidence
    assert fidelity.mark(Finding("goyal1998", "q", "s", ("b",)), VERDICTS)[0] == "not"
    label, evidence = fidelity.mark(Finding("goyal1998", "q", "s", ("zz",)), VERDICTS)
    assert label == "not" and "claim missing" in evidence


def test_documents_table_counts_compared_cells_only():
    comparison = pd.DataFrame({
        "target": ["goyal1998.table1"] * 3 + ["cheon.table1"] * 2,
        "kind": ["fraction", "fraction", "fraction", "quantity", "quantity"],
        "difference": [0.1, 0.2, 5.0, 100.0, 1.0],
        "relative_difference_pct": [10.0, 20.0, 50.0, 10.0, 1.0],
        "inside": [True, False, None, True, None],
        "status": ["compared", "compared", "model parameter", "compared", "model parameter"],
        "seeds": [10, 10, None, 3, None],
    })
    table = fidelity.documents_table(comparison, VERDICTS, {"goyal1998": ["x", "y"], "cheon": ["z"]})
    goyal = table.loc["goyal1998"]
    assert goyal["targets"] == 2 and goyal["cells"] == 2 and goyal["inside"] == 1
    assert goyal["fractions, points"] == 15.0 and goyal["model parameters echoed"] == 1
    assert goyal["claims passed"] == "1 of 2"
    assert table.loc["cheon", "quantities, % of paper"] == 10.0
    page = fidelity.page(table, fidelity.findings_table([Finding("cheon", "ESPD q", "3.3", ("c",))], VERDICTS))
    assert table.loc["cheon", "seeds per cell"] == "3"
    assert "| goyal1998 | 2 | 2 | 10 | 2 | 1 | 0.50 |" in page and "**reproduced** (3.3): \"ESPD q\"" in page


def test_every_paper_states_its_principal_findings_with_known_claims():
    """Three to six findings per document, each decided by claims that exist."""
    names = {c.name for key in papers.PAPERS for c in papers.claims_of(key)}
    for key, package in papers.PAPERS.items():
        findings = getattr(package, "FINDINGS", [])
        assert 3 <= len(findings) <= 6, key
        for finding in findings:
            assert finding.paper == key and finding.quote and finding.claims
            assert set(finding.claims) <= names, (key, set(finding.claims) - names)


def test_the_page_lists_each_papers_studies(tmp_path):
    """A notebook's studies.csv (issue 23: cheon's ESPD and EOM studies) appears under its paper on the
    fidelity page, with the finding the notebook computed; a notebook without one adds nothing."""
    import pandas as pd

    from atmtcp import fidelity
    (tmp_path / "cheon").mkdir()
    (tmp_path / "ewa").mkdir()
    pd.DataFrame([{"paper": "cheon", "target": "cheon.espd_hold_study", "finding": "ESPD 74,000 at 25 ms"}]).to_csv(
        tmp_path / "cheon" / fidelity.STUDIES_FILE, index=False)
    studies = fidelity.collect_studies(tmp_path, {"cheon": ("cheon",), "ewa": ("ewa",)})
    assert list(studies.target) == ["cheon.espd_hold_study"]
    findings = pd.DataFrame([{"paper": "cheon", "where": "4.2.3", "finding": "f", "mark": "not", "evidence": "e"}])
    page = fidelity.page(pd.DataFrame({"document": ["cheon"]}), findings, studies=studies)
    cheon = page.split("### cheon")[1]
    assert "- `cheon.espd_hold_study`: ESPD 74,000 at 25 ms" in cheon
    assert "Studies" not in fidelity.page(pd.DataFrame({"document": ["cheon"]}), findings)
