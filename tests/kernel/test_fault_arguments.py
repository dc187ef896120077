"""Faults (atmtcp.kernel.faults): every error the kernel raises is a constant, and the numbers it names
reach the caller through the kernel's entry, from the JIT and from the ahead-of-time module alike."""
import ast
import importlib
import inspect
import pkgutil
import textwrap

import numpy as np
import pytest

import atmtcp.kernel as kernel
from atmtcp.kernel import entry
from atmtcp.kernel import layout as L
from atmtcp.kernel.faults import FAULT_ARGS
from atmtcp.kernel.tables import LAY_OFFSET, T_G, KernelState


def kernel_functions():
    """Every numba function defined in a module of atmtcp.kernel: (module.name, its Python function)."""
    for info in pkgutil.iter_modules(kernel.__path__):
        module = importlib.import_module(f"atmtcp.kernel.{info.name}")
        for name, value in vars(module).items():
            py_func = getattr(value, "py_func", None)
            if py_func is not None and py_func.__module__ == module.__name__:
                yield f"{info.name}.{name}", py_func


def run_time_arguments(py_func) -> list[str]:
    """The arguments of ``raise`` statements in ``py_func`` that are not constants: a literal, or a name
    bound to a string at module level."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(py_func)))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            for arg in node.exc.args:
                constant = isinstance(arg, ast.Constant) or (
                    isinstance(arg, ast.Name) and isinstance(py_func.__globals__.get(arg.id), str))
                if not constant:
                    found.append(ast.unparse(arg))
    return found


def test_the_check_sees_the_kernel_and_a_run_time_argument():
    functions = dict(kernel_functions())
    assert {"policies.decide", "ports.transmit_cells", "tcp_recovery.fast_retransmit"} <= set(functions)

    def raising(S, p):
        raise ValueError("port:", p)
    assert run_time_arguments(raising) == ["p"]


def test_no_kernel_function_raises_with_run_time_arguments():
    """numba 0.68's exceptions with run-time arguments crash an ahead-of-time module linked from its cache;
    a fault keeps its numbers with keep_fault_args and raises its message alone."""
    found = {name: args for name, py_func in kernel_functions() if (args := run_time_arguments(py_func))}
    assert found == {}


def test_a_fault_s_numbers_are_appended_to_its_message():
    g = np.zeros(L.G_NFIELDS, np.int64)
    g[L.G_FAULT_NARGS], g[L.G_FAULT_ARG0:L.G_FAULT_ARG0 + FAULT_ARGS] = 2, (7, 99, 5)
    lay = np.zeros((T_G + 1, 3), np.int64)
    state = KernelState(g, np.zeros(0), np.zeros(0, np.uint8), lay)
    assert lay[T_G, LAY_OFFSET] == 0 and entry.fault_args(state) == (7, 99)

    def failing(_):
        raise ValueError("message:")
    with pytest.raises(ValueError) as error:
        entry.with_fault_args(failing)(state)
    assert error.value.args == ("message:", 7, 99)

    def failing_otherwise(_):
        raise ValueError("another error", 1)
    with pytest.raises(ValueError) as error:
        entry.with_fault_args(failing_otherwise)(state)
    assert error.value.args == ("another error", 1)
