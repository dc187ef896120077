"""Every list a newcomer extends has one home, and what reads it covers it: the policies, flavours,
loss detections, recoveries, window rules, SACK's PIPE starts and drops from the front of the model are the
kernel's names, the atlas runs and labels each of them, and the fidelity page has one document per paper
of the registry (docs/how-it-works.md's recipes name these homes; tests/docs/test_recipes.py follows them)."""
import pytest

from atmtcp import fidelity, internetwork, papers
from atmtcp import model as m
from atmtcp.atlas import grid
from atmtcp.kernel import layout as L


def atlas_gaps() -> list[str]:
    """What the atlas misses of the model's policies and flavours, in words (empty: nothing)."""
    kinds = {grid.cell_port(p, 1000, 10).policy.kind for p in grid.CELL_POLICIES}
    gaps = [f"policy {p!r} is no cell port's of the atlas" for p in m.POLICIES if p not in kinds]
    gaps += [f"router policy {p!r} is not in the atlas" for p in internetwork.ROUTER_POLICIES
             if p not in grid.PACKET_POLICIES]
    gaps += [f"policy {p!r} has no label" for p in grid.POLICIES if not grid.LABELS.get(p)]
    gaps += [f"flavour {f!r} is not in the atlas" for f in m.FLAVORS if f not in grid.TCPS]
    return gaps + [f"TCP {t!r} has no label" for t in grid.TCPS if not grid.TCP_LABELS.get(t)]


def test_the_atlas_runs_and_labels_every_policy_and_flavour_of_the_model():
    assert atlas_gaps() == []
    assert grid.FLAVORS == m.FLAVORS


@pytest.mark.parametrize("name", m.POLICIES)
def test_every_policy_record_has_a_label_of_its_own(name):
    record = m.POLICY_RECORDS[name]
    assert "label" in vars(record) and record.label
    assert [r.label for r in m.POLICY_RECORDS.values()].count(record.label) == 1


def test_every_flavour_has_its_axes_and_a_label():
    assert m.FLAVORS == tuple(m.FLAVOR_AXES) == tuple(m.FLAVOR_LABELS)
    for detection, recovery in m.FLAVOR_AXES.values():
        assert detection in m.LOSS_DETECTIONS and recovery in m.RECOVERIES


@pytest.mark.parametrize("names,codes", [
    (L.LOSS_DETECTION_NAMES, {"timeout": L.DETECT_TIMEOUT, "dupacks": L.DETECT_DUPACKS,
                              "sack": L.DETECT_SACK}),
    (L.RECOVERY_NAMES, {"none": L.RECOVERY_NONE, "reno": L.RECOVERY_RENO, "newreno": L.RECOVERY_NEWRENO,
                        "sack": L.RECOVERY_SACK}),
    (L.POLICY_NAMES, {name: getattr(L, name.upper()) for name in L.POLICY_NAMES}),
    (L.ROUTER_POLICY_NAMES, {"drop_tail": L.DROP_TAIL, "drop_from_front": L.DROP_FROM_FRONT,
                             "red": L.FLOYD_JACOBSON_RED}),
    (L.INCREASE_RULE_NAMES, {"float": L.INC_FLOAT, "bsd": L.INC_BSD, "integer": L.INC_INTEGER,
                             "integer_every_n": L.INC_INTEGER_EVERY_N}),
    (L.SSTHRESH_RULE_NAMES, {"half_cwnd": L.SS_HALF_CWND, "bsd": L.SS_BSD}),
    (L.SACK_PIPE_START_NAMES, {"cwnd-3": L.PIPE_CWND_MINUS_3, "cwnd": L.PIPE_CWND}),
    (L.FRONT_DROP_NAMES, {"none": L.NO_FRONT, "cell": L.FRONT_CELL, "frame": L.FRONT_FRAME}),
])
def test_the_kernel_names_its_codes_in_their_order(names, codes):
    """Each name of a kernel table of names is its own code's position (``"sack"`` at ``DETECT_SACK == 2``):
    a name added without its code, a code without its name, or two names swapped fails."""
    assert sorted(names) == sorted(codes)
    assert [codes[name] for name in names] == list(range(len(names)))


def test_the_model_takes_its_names_from_the_kernel():
    assert m.LOSS_DETECTIONS is L.LOSS_DETECTION_NAMES
    assert m.RECOVERIES is L.RECOVERY_NAMES
    assert m.POLICIES is L.POLICY_NAMES
    assert m.INCREASE_RULES is L.INCREASE_RULE_NAMES
    assert m.SSTHRESH_RULES is L.SSTHRESH_RULE_NAMES
    assert m.SACK_PIPE_STARTS is L.SACK_PIPE_START_NAMES
    assert m.FRONT_DROPS is L.FRONT_DROP_NAMES
    assert internetwork.ROUTER_POLICIES is L.ROUTER_POLICY_NAMES


def test_the_fidelity_page_has_every_paper_of_the_registry_in_its_order():
    assert fidelity.document_keys() == tuple(papers.PAPERS)
