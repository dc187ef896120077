"""The recoveries' one registry (after ns-3's ``TcpRecoveryOps``): each name of
``kernel.layout.RECOVERY_NAMES`` has its code; each but ``none`` has its entry ``<name>_enter`` and
may have ``<name>_dupack`` and ``<name>_new_ack``, each of the shared signature of its step and with
exactly one branch in that step's dispatcher (and no branch for a function it lacks); a connection whose
recovery code has no branch stops the run instead of acting as another recovery."""
import inspect
import re

import pytest

from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.kernel import entry, tcp_recovery
from atmtcp.kernel import layout as L
from atmtcp.topologies import n_source_run

STEPS = {  # step: (dispatcher, signature)
    "enter": ("fast_retransmit", ("S", "c", "cwnd_before", "t")),
    "dupack": ("on_dupack_in_recovery", ("S", "c")),
    "new_ack": ("on_ack_in_recovery", ("S", "c", "ack", "una", "t")),
}
FAST = [name for name in L.RECOVERY_NAMES if name != "none"]


def branches(dispatcher: str) -> list[tuple[str, str]]:
    """(code name, function called) of each ``recovery == RECOVERY_<NAME>`` branch of ``dispatcher``."""
    source = inspect.getsource(getattr(tcp_recovery, dispatcher).py_func)
    return re.findall(r"if recovery == RECOVERY_(\w+):\n\s+(\w+)\(", source)


@pytest.mark.parametrize("code,name", list(enumerate(L.RECOVERY_NAMES)))
def test_every_recovery_has_its_code(code, name):
    assert getattr(L, f"RECOVERY_{name.upper()}") == code


@pytest.mark.parametrize("name", FAST)
@pytest.mark.parametrize("step", STEPS)
def test_each_function_of_a_recovery_has_its_signature_and_one_branch(name, step):
    dispatcher, signature = STEPS[step]
    function = getattr(tcp_recovery, f"{name}_{step}", None)
    assert function is not None or step != "enter", f"{name} has no {name}_enter"
    own = [called for code, called in branches(dispatcher) if code == name.upper()]
    if function is None:
        assert own == []
        return
    assert tuple(inspect.signature(function.py_func).parameters) == signature
    assert own == [f"{name}_{step}"]
    branch = rf"if recovery == RECOVERY_{name.upper()}:\n\s+{name}_{step}\({', '.join(signature)}\)\n"
    assert len(re.findall(branch, inspect.getsource(getattr(tcp_recovery, dispatcher).py_func))) == 1


@pytest.mark.parametrize("step", STEPS)
def test_a_dispatcher_has_no_other_branch_and_raises_on_the_rest(step):
    dispatcher, _ = STEPS[step]
    assert {code.lower() for code, _ in branches(dispatcher)} <= set(FAST)
    functions = {n for n in vars(tcp_recovery) if n.endswith(f"_{step}") and n[:-len(step) - 1] in L.RECOVERY_NAMES}
    assert {called for _, called in branches(dispatcher)} == functions
    source = inspect.getsource(getattr(tcp_recovery, dispatcher).py_func)
    assert source.rstrip().endswith("else:\n        keep_fault_args(S, 2, c, recovery, 0)\n        raise ValueError(UNKNOWN_RECOVERY)")


def _runners():
    yield "jit", entry.jit_runner()
    module = entry.load_aot()
    if module is not None:
        yield "aot", entry.aot_runner(module)


@pytest.mark.parametrize("code", [L.RECOVERY_NONE, len(L.RECOVERY_NAMES)])
@pytest.mark.parametrize("kind,runner", list(_runners()))
def test_a_connection_with_a_recovery_code_without_branches_stops_the_run(kind, runner, code):
    """Reno's detection with recovery "none" (no fast recovery) or with a code appended without its
    branches fails at the first third duplicate ACK, naming the connection and the code."""
    run = n_source_run(3, 5e-6, m.PortConfig(300, m.DropPolicy("tail")), m.TcpConfig(flavor="reno"), 0.5,
                       contention="deterministic")  # four fast retransmits per connection with Reno
    compiled = compile_run(run)
    compiled.state.conn[:, L.C_RECOVERY] = code
    with pytest.raises(ValueError, match="recovery code not in atmtcp.kernel.layout.RECOVERY_NAMES") as error:
        runner(compiled.kernel_state)
    assert error.value.args[2] == code and 0 <= error.value.args[1] < len(run.connections)
