"""docs/how-it-works.md's three recipes, followed on a toy addition each, in a fresh interpreter (so that
nothing of the toy reaches another test) and without a file in the repository:

- a drop policy that drops nothing (``accept_all``): its name and code, its record, the atlas step;
  the kernel function and its branch in ``policies.decide`` need a recompiled kernel, so they are not
  followed here (``test_policy_registry.py`` checks them for every real policy);
- a TCP that never recovers (``stubborn``: a timeout only, no fast recovery, on the kernel's existing
  codes): its axes and label, the atlas, the compiler's codes, and a run identical to vanilla's;
- a one-figure paper (``toy1999``, a package in a temporary folder added to the registry's path): the
  registry, the fidelity page, the generated papers page and its one experiment run.

Each step the recipe names is done as the recipe says, after the package was imported (what an edit of
the source would have done before), and each check is one the recipe says will find the addition."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PREAMBLE = """
import json, sys
from dataclasses import dataclass
from typing import ClassVar
out = {}
def refused(call):
    try:
        call()
    except Exception as error:
        return type(error).__name__ + ": " + str(error)
    return None
"""

POLICY = PREAMBLE + """
from atmtcp.kernel import layout as L
from atmtcp import model as m
# 1. the name and its code (model.POLICIES is layout.POLICY_NAMES)
L.ACCEPT_ALL = len(L.POLICY_NAMES)
L.POLICY_NAMES = m.POLICIES = L.POLICY_NAMES + ("accept_all",)

# 3. the model record, in the tuple behind POLICY_RECORDS
@dataclass(frozen=True)
class AcceptAll(m.PolicyRecord):
    '''Drops nothing (a toy).'''
    code: ClassVar[int] = L.ACCEPT_ALL
    label: ClassVar[str] = "Accept all"

m.POLICY_RECORDS["accept_all"] = AcceptAll
out["model"] = m.DropPolicy("accept_all") == AcceptAll() and m.POLICIES[-1] == "accept_all"
out["columns"] = int(AcceptAll().kernel_columns(1000, 5)[0][L.P_POLICY])
from atmtcp import cli
out["cli"] = "accept_all" in cli.build_parser()._subparsers._group_actions[0].choices["run"]._option_string_actions["--policy"].choices
# the atlas step: the grid lists it at once, and refuses a port for it until it is given one
from atmtcp.atlas import grid
out["atlas_lists"] = "accept_all" in grid.CELL_POLICIES and grid.LABELS["accept_all"] == "Accept all"
out["atlas_refuses"] = refused(lambda: grid.cell_port("accept_all", 1000, 10))
grid.FIXED_PORTS["accept_all"] = (m.DropPolicy("accept_all"), "none")
out["atlas_port"] = grid.cell_port("accept_all", 1000, 10).policy.kind
print(json.dumps(out))
"""

TCP = PREAMBLE + """
import numpy as np
from atmtcp import model as m
# 1. the name and its axes (its recovery "none" has its code already), and its label
m.FLAVOR_AXES["stubborn"] = ("timeout", "none")
m.FLAVORS = tuple(m.FLAVOR_AXES)
out["unlabelled"] = [f for f in m.FLAVORS if f not in m.FLAVOR_LABELS]
m.FLAVOR_LABELS["stubborn"] = "stubborn"
from atmtcp import cli
from atmtcp.atlas import grid
from atmtcp.compile import compile_run
from atmtcp.kernel import layout as L
from atmtcp.simulate import counters, run_kernel
from atmtcp.topologies import n_source_run
out["cli"] = "stubborn" in cli.build_parser()._subparsers._group_actions[0].choices["run"]._option_string_actions["--tcp"].choices
out["atlas"] = "stubborn" in grid.TCPS and grid.TCP_LABELS["stubborn"] == "stubborn"
def run(flavor):
    return n_source_run(3, 5e-6, m.PortConfig(300, m.DropPolicy("tail")), m.TcpConfig(flavor=flavor), 0.5,
                        contention="deterministic")
conn = compile_run(run("stubborn")).state.conn
out["codes"] = [int(conn[0, L.C_LOSS_DETECTION]), int(conn[0, L.C_RECOVERY])]
same = {}
for flavor in ("stubborn", "vanilla"):
    r = run(flavor)
    c = counters(r, run_kernel(r))
    same[flavor] = {k: np.asarray(c[k].values).tolist() for k in ("events", "timeouts", "fast_retransmits", "delivered_bytes")}
out["runs"] = same
print(json.dumps(out))
"""

PAPER = PREAMBLE + """
import atmtcp.papers as papers
papers.__path__.append(sys.argv[1])
from atmtcp import fidelity
out["registry"] = list(papers.PAPERS)
out["documents"] = list(fidelity.document_keys())
out["notebooks"] = papers.notebooks().get("toy1999")
out["summary"] = papers.targets_summary("toy1999")
out["citation"] = papers.citation("toy1999")
sys.path.insert(0, sys.argv[2])
import atmtcp_docs
out["papers_page"] = "| [toy1999](toy1999.md) |" in atmtcp_docs.papers_index()
experiment = papers.EXPERIMENTS["toy1999.fig1"]
out["efficiency"] = float(experiment.run_point(experiment.points(True)[0], True).efficiency)
print(json.dumps(out))
"""

TOY_PAPER = '''"""toy1999: A. Toy, "A one-figure paper" (Nowhere, 1999). See :mod:`atmtcp.papers`."""
from atmtcp import model as m
from atmtcp.claims import Finding
from atmtcp.experiment import Experiment, grid
from atmtcp.papers.cheon.scenario import TCP_SETTINGS  # noqa: F401  (a toy borrows a paper's TCP)
from atmtcp.papers.goyal1998.summary import run_summary
from atmtcp.topologies import n_source_run

ORDER = 99
NOTEBOOK = "toy1999"
TABLE_TARGETS = []
FIGURE_TARGETS = ["toy1999.fig1"]
CLAIMS = []
FINDINGS = []


def run_point(point, quick):
    return run_summary(n_source_run(2, 5e-6, m.PortConfig(1000), m.TcpConfig(), 0.05, seed=point["seed"]))


EXPERIMENTS = [Experiment("toy1999.fig1", "Fig. 1: one run", lambda quick: grid(seed=[0]), run_point)]
'''


def follow(script: str, *args: str) -> dict:
    """Run ``script`` in a fresh interpreter from the repository's root; its printed JSON."""
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_adding_a_drop_policy():
    out = follow(POLICY)
    assert out["model"] and out["columns"] == 7 and out["cli"] and out["atlas_lists"]
    assert "accept_all" in out["atlas_refuses"] and "FIXED_PORTS" in out["atlas_refuses"]
    assert out["atlas_port"] == "accept_all"


def test_adding_a_tcp_variant():
    out = follow(TCP)
    assert out["unlabelled"] == ["stubborn"]
    assert out["cli"] and out["atlas"] and out["codes"] == [0, 0]
    assert out["runs"]["stubborn"] == out["runs"]["vanilla"] and out["runs"]["vanilla"]["timeouts"]


def test_adding_a_paper(tmp_path):
    package = tmp_path / "toy1999"
    package.mkdir()
    (package / "__init__.py").write_text(TOY_PAPER)
    out = follow(PAPER, str(tmp_path), str(ROOT / "docs" / "_ext"))
    assert out["registry"][-1] == out["documents"][-1] == "toy1999"
    assert out["registry"] == out["documents"]
    assert out["notebooks"] == ["toy1999"] and out["summary"] == "Fig. 1"
    assert out["citation"] == 'toy1999: A. Toy, "A one-figure paper" (Nowhere, 1999).'
    assert out["papers_page"] and 0 < out["efficiency"] <= 1
