"""A constant passed from compiled code does not compile a function again (issue 39, goal 2): the kernel's
dispatcher types it as a plain integer (atmtcp.kernel.jit._PlainArgumentsDispatcher), so each function has one
signature whatever constants its callers pass. Before, 29 of the 192 compiles of a cold kernel compile were
such copies (docs/speed.md)."""
from atmtcp.kernel import jit as kernel_jit


def test_constants_from_compiled_callers_share_one_signature(monkeypatch):
    monkeypatch.setitem(kernel_jit.JIT_OPTIONS, "cache", False)  # compiled here, never loaded from a cache

    @kernel_jit.jit_inline
    def scaled(x, factor):
        return x * factor

    @kernel_jit.jit
    def row(index, value):
        return index + value

    @kernel_jit.jit
    def callers(x):
        return scaled(x, 2) + scaled(x, 3) + row(0, x) + row(1, x)

    assert callers(5) == 10 + 15 + 5 + 6
    assert len(scaled.signatures) == 1 and len(row.signatures) == 1, (scaled.signatures, row.signatures)
