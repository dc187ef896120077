"""The public API that docs/api.md shows documents itself as numpydoc does (napoleon renders it,
docs/conf.py; stumpy's style): each public function and method that takes parameters has a ``Parameters``
section naming every one of them, one that returns something a ``Returns`` section, one whose body raises a
``Raises`` section; each public class whose constructor takes parameters names them in its ``Parameters``
section (``Attributes`` for a class the package makes, not the user). A method that overrides one of a base
class is described there. Properties are attributes: their one-line docstring suffices
(tests/docs/test_docstrings.py). The modules are read from the page's ``automodule`` directives (the kernel's
show their module docstrings only), so a module added there is held too (:data:`PENDING` may excuse one while its
sections are written).
"""
from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
import textwrap
from pathlib import Path

import pytest

API_PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
PENDING: tuple[str, ...] = ()
"""Modules of docs/api.md whose functions may still lack numpydoc sections (none now)."""


def shown_modules() -> dict[str, tuple[str, ...] | None]:
    """Module -> the members docs/api.md lists for it (None: every public member), for each ``automodule``
    with ``:members:``."""
    shown = re.findall(r"\.\. automodule:: (\S+)\n((?:   :\S.*\n)*)", API_PAGE.read_text())
    out = {}
    for name, options in shown:
        members = re.search(r":members: *(.*)", options)
        if members:
            out[name] = tuple(m.strip() for m in members.group(1).split(",")) if members.group(1).strip() else None
    return out


def sections(doc: str) -> dict[str, str]:
    """A numpydoc docstring's sections: title -> body (the text up to the next title)."""
    parts = re.split(r"^\s*(\w[\w ]*)\n\s*-{3,}\s*$", doc or "", flags=re.M)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2])}


def named(body: str) -> set[str]:
    """The names a ``Parameters`` section describes (``a, b : int`` names a and b; ``**params`` params)."""
    names = set()
    for line in body.splitlines():
        if line.strip() and not line[:1].isspace():   # a name line; its description is indented below it
            names |= {n.strip().lstrip("*") for n in line.split(" : ")[0].split(",") if n.strip()}
    return names


def gaps(name: str, obj, doc: str | None, parameters: list[str], returns: bool, raises: bool) -> list[str]:
    """What ``doc`` lacks of the sections ``obj`` needs, in words (empty: nothing). A class that the package
    makes rather than the user (:class:`atmtcp.compile.Compiled`) may name its fields as ``Attributes``."""
    found = sections(inspect.cleandoc(doc or ""))
    out = []
    if parameters:
        title = "Attributes" if inspect.isclass(obj) and "Attributes" in found else "Parameters"
        missing = [p for p in parameters if p not in named(found.get(title, ""))]
        if title not in found:
            out.append(f"{name}: no Parameters section")
        elif missing:
            out.append(f"{name}: Parameters does not name {missing}")
    if returns and "Returns" not in found and "Yields" not in found:
        out.append(f"{name}: no Returns section")
    if raises and "Raises" not in found:
        out.append(f"{name}: raises, and has no Raises section")
    return out


def _source_node(function) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]


def function_gaps(name: str, function) -> list[str]:
    """What ``function``'s docstring lacks (see the module docstring)."""
    node = _source_node(function)
    parameters = [p for p in inspect.signature(function).parameters if p not in ("self", "cls")]
    returns = node.returns is not None and ast.unparse(node.returns) not in ("None", "'None'")
    raises = any(isinstance(n, ast.Raise) for n in ast.walk(node))
    return gaps(name, function, function.__doc__, parameters, returns, raises)


def class_gaps(name: str, cls) -> list[str]:
    """What ``cls``'s docstring and its own public methods' lack."""
    if dataclasses.is_dataclass(cls):
        parameters = [f.name for f in dataclasses.fields(cls) if f.init]
    elif issubclass(cls, BaseException) or cls.__init__ is object.__init__:
        parameters = []
    else:
        parameters = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    out = gaps(name, cls, cls.__doc__, parameters, False, False)
    for attr, value in vars(cls).items():
        function = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
        if attr.startswith("_") or not inspect.isfunction(function):
            continue
        if any(attr in vars(base) for base in cls.__mro__[1:]):
            continue   # an override: its base describes it
        out += function_gaps(f"{name}.{attr}", function)
    return out


def public_members(module_name: str, listed: tuple[str, ...] | None = None):
    """``(name, object)`` of the module's public functions and classes that docs/api.md shows: those
    ``listed``, else those defined in the module."""
    module = importlib.import_module(module_name)
    for name, obj in vars(module).items():
        if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if (name in listed) if listed is not None else obj.__module__ == module_name:
            yield name, obj


def test_the_sections_are_read_as_numpydoc_writes_them():
    doc = """Summary.

    Parameters
    ----------
    a, b : int
        Two.
    **params
        The rest.

    Returns
    -------
    int
    """

    def f(a, b, **params) -> int:
        raise ValueError

    f.__doc__ = doc
    assert named(sections(inspect.cleandoc(doc))["Parameters"]) == {"a", "b", "params"}
    assert gaps("f", f, doc, ["a", "b", "params"], True, False) == []
    assert gaps("f", f, doc, ["a", "c"], True, True) == ["f: Parameters does not name ['c']",
                                                         "f: raises, and has no Raises section"]


@pytest.mark.parametrize("module_name", [m for m in shown_modules() if m not in PENDING])
def test_the_api_has_numpydoc_sections(module_name):
    missing = []
    for name, obj in public_members(module_name, shown_modules()[module_name]):
        missing += class_gaps(name, obj) if inspect.isclass(obj) else function_gaps(name, obj)
    assert missing == [], "\n".join(missing)


def test_every_pending_module_is_on_the_api_page():
    assert set(PENDING) <= set(shown_modules())
