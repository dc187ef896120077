"""Every public function and class of the package has a docstring (the developer guide: "docstrings on
public things"), read from the source: a module-level function or class whose name has no leading
underscore, and each such method or property of a public class. Functions nested in functions and the
members of private classes are not counted. Kernel functions count too (their numba decorators keep the
docstring in the source).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "atmtcp"
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def public_definitions(body: list[ast.stmt], prefix: str = ""):
    """``(qualified name, node)`` of each public function or class in ``body``, and of the public members of
    each public class, recursively."""
    for node in body:
        if isinstance(node, DEFINITIONS) and not node.name.startswith("_"):
            yield prefix + node.name, node
            if isinstance(node, ast.ClassDef):
                yield from public_definitions(node.body, f"{prefix}{node.name}.")


def undocumented(source: str, where: str) -> list[str]:
    """``"<where>:<line> <name>"`` of each public definition of ``source`` without a docstring."""
    return [f"{where}:{node.lineno} {name}" for name, node in public_definitions(ast.parse(source).body)
            if ast.get_docstring(node) is None]


def test_the_check_finds_a_missing_docstring_and_only_that():
    source = '''
def documented():
    """Yes."""
def bare(): pass
def _private(): pass
class Thing:
    """A thing."""
    def method(self): pass
    @property
    def value(self):
        """Its value."""
    def _helper(self): pass
class _Hidden:
    def method(self): pass
def outer():
    """Outer."""
    def inner(): pass
'''
    assert undocumented(source, "x.py") == ["x.py:4 bare", "x.py:8 Thing.method"]


def test_every_public_function_and_class_has_a_docstring():
    missing = [line for path in sorted(PACKAGE.rglob("*.py"))
               for line in undocumented(path.read_text(), str(path.relative_to(ROOT)))]
    assert missing == [], f"{len(missing)} public definitions without a docstring:\n" + "\n".join(missing)
