"""The drop policies' one registry: each name of ``kernel.layout.POLICY_NAMES`` has its code, its model
record, its kernel function ``decide_<name>`` of the shared signature and its branch in
``kernel.policies.decide``; a port whose code is no policy's stops the run; ``DropPolicy(kind, **params)``
refuses a parameter its kind does not have."""
import inspect
import re

import pytest

from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.kernel import entry, policies
from atmtcp.kernel import layout as L
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run

SIGNATURE = ("S", "p", "pv", "x", "bom", "eom", "t")


@pytest.mark.parametrize("code,name", list(enumerate(L.POLICY_NAMES)))
def test_every_policy_has_a_code_a_record_a_kernel_function_and_a_dispatch_branch(code, name):
    assert getattr(L, name.upper()) == code
    record = m.POLICY_RECORDS[name]
    assert record.code == code and record().kind == name
    assert record().kernel_columns(1000, 5)[0][L.P_POLICY] == code
    decide = getattr(policies, f"decide_{name}")
    assert tuple(inspect.signature(decide.py_func).parameters) == SIGNATURE
    branch = rf"if policy == {name.upper()}:\n\s+return decide_{name}\({', '.join(SIGNATURE)}\)\n"
    assert len(re.findall(branch, inspect.getsource(policies.decide.py_func))) == 1


def test_the_model_has_no_other_records():
    assert m.POLICIES is L.POLICY_NAMES
    assert tuple(m.POLICY_RECORDS) == L.POLICY_NAMES
    assert sorted(n[len("decide_"):] for n in vars(policies) if n.startswith("decide_")) == sorted(L.POLICY_NAMES)
    assert tuple(inspect.signature(policies.decide.py_func).parameters) == SIGNATURE


def _runners():
    yield "jit", entry.jit_runner()
    module = entry.load_aot()
    if module is not None:
        yield "aot", entry.aot_runner(module)


@pytest.mark.parametrize("kind,runner", list(_runners()))
def test_a_port_with_an_unknown_policy_code_stops_the_run(kind, runner):
    """A code appended to the port table without its branch fails, naming the port and the code,
    instead of acting as some other policy."""
    compiled = compile_run(n_source_run(2, 5e-6, m.PortConfig(100), m.TcpConfig(), 0.05, contention="deterministic"))
    p = compiled.port_names.index(BOTTLENECK)
    code = len(L.POLICY_NAMES)
    compiled.state.port[p, L.P_POLICY] = code
    with pytest.raises(ValueError, match="drop policy code not in atmtcp.kernel.layout.POLICY_NAMES") as error:
        runner(compiled.kernel_state)
    assert error.value.args[1:] == (p, code)


@pytest.mark.parametrize("kind,runner", list(_runners()))
def test_a_nic_that_is_not_tail_drop_stops_the_run(kind, runner):
    """Every NIC is a tail-drop FIFO on an infinite buffer (``compile.cell_ports.port_specs``), so
    ``transmit_cells`` counts a packet's cells in at once without a decision per cell. A NIC state built
    otherwise fails, naming the NIC, its policy code and its queue, instead of running as tail drop."""
    compiled = compile_run(n_source_run(2, 5e-6, m.PortConfig(100), m.TcpConfig(), 0.05, contention="deterministic"))
    nic = int(compiled.state.vc_port[0, 0])
    assert compiled.port_names[nic] != BOTTLENECK and compiled.state.port[nic, L.P_POLICY] == L.TAIL
    compiled.state.port[nic, L.P_POLICY] = L.EPD
    with pytest.raises(ValueError, match="a NIC must be a tail-drop FIFO port") as error:
        runner(compiled.kernel_state)
    assert error.value.args[1:] == (nic, L.EPD, 0)


@pytest.mark.parametrize("kind,params,field", [
    ("tail", {"z": 0.5}, "z"), ("ppd", {"threshold": 10}, "threshold"), ("epd", {"active_vcs": "routed"}, "active_vcs"),
    ("espd", {"keep_eom": False}, "keep_eom"), ("red", {"threshold2": 5}, "threshold2"),
    ("selective_drop", {"red_frames": True}, "red_frames"), ("fba", {"colour": "red"}, "colour"),
])
def test_a_parameter_of_another_policy_is_refused(kind, params, field):
    with pytest.raises(m.ModelError) as error:
        m.DropPolicy(kind, **params)
    assert error.value.field == f"DropPolicy.{field}" and repr(kind) in str(error.value)


def test_the_factory_returns_the_kinds_record():
    assert m.DropPolicy() == m.Tail()
    assert m.DropPolicy("epd", threshold=800, capture_eom=True) == m.EPD(threshold=800, capture_eom=True)
    assert m.DropPolicy("tail", threshold=None) == m.Tail()  # None: not given
    assert isinstance(m.DropPolicy("red", red_frames=True), m.CellRED)
    assert m.policies_with("threshold") == ("epd", "selective_drop", "fba", "espd")
    assert m.policies_with("z") == ("selective_drop", "fba")
    assert [k for k, r in m.POLICY_RECORDS.items() if r.reads_vc_shares] == ["selective_drop", "fba"]
