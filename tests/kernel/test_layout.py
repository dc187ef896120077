"""The kernel's column and table numbers (issue 27): in :mod:`atmtcp.kernel.layout` each table's
columns stand one per line, with an explicit number and a comment giving unit and meaning, numbered
0 .. ``*_NFIELDS`` - 1 in order, and ``*_NFIELDS`` is the column count the kernel reads
(:data:`atmtcp.kernel.tables.FIXED_COLUMNS`); each ``T_*`` of :mod:`atmtcp.kernel.tables` is its
table's index in ``TABLES``, written out rather than made through ``globals()``."""
import ast
import re
from pathlib import Path

import pytest

from atmtcp.compile import compile_run
from atmtcp.kernel import layout as L
from atmtcp.kernel import state, tables
from atmtcp.simulate import warm_up_run

KERNEL = Path(tables.__file__).parent
SHARED = {"PKT_TS": "PKT_NEXT_FREE"}
"""The one column with two names (``tests/kernel/test_shared_columns.py`` proves the uses never overlap)."""
NAMELESS = {"trace_i": 2, "droplog": 5, "rq_ring": 2}
"""Tables of a fixed width whose columns have no names in the layout."""
TABLE_HEADER = re.compile(r"^# === table ``(\w+)``")
CODES_HEADER = re.compile(r"^# === codes: ")
UNIT_AND_MEANING = re.compile(r"^# [^:]+: \S")


def _sections() -> dict[str, list[tuple[str, ast.expr, str]]]:
    """``{section: [(name, value node, comment)]}`` of layout.py's top-level assignments, in file
    order; a table's section is named by its table, a section of codes by its header line."""
    source = Path(L.__file__).read_text()
    lines = source.splitlines()
    header_at = {}
    for number, line in enumerate(lines, 1):
        if (match := TABLE_HEADER.match(line)) or CODES_HEADER.match(line):
            header_at[number] = match.group(1) if match else line
    sections: dict[str, list] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            above = [n for n in header_at if n < node.lineno]
            if above:
                line = lines[node.lineno - 1]
                comment = line[line.index("#"):] if "#" in line else ""
                row = (node.targets[0].id, node.value, comment)
                sections.setdefault(header_at[max(above)], []).append(row)
    return sections


SECTIONS = _sections()
TABLE_SECTIONS = {name: rows for name, rows in SECTIONS.items() if not name.startswith("#")}
TABLE_INDEX = {name: i for i, (name, _, _) in enumerate(tables.TABLES)}


def _integers(rows):
    """The rows whose value is a whole number (a column, a count, a code), not a tuple of them."""
    return [(name, value, comment) for name, value, comment in rows if isinstance(getattr(L, name), int)]


def test_each_table_with_named_columns_has_a_section():
    named = {name for name, i in TABLE_INDEX.items() if tables.FIXED_COLUMNS[i] and name not in NAMELESS}
    assert set(TABLE_SECTIONS) == named | {"g"}


@pytest.mark.parametrize("table", sorted(TABLE_SECTIONS))
def test_columns_are_numbered_0_to_nfields(table):
    """Each column: an explicit integer, its own line with ``# unit: meaning``; together exactly
    0 .. NFIELDS - 1, in file order, unique but for the declared shared column, one prefix."""
    rows = _integers(TABLE_SECTIONS[table])
    *columns, (sentinel, sentinel_value, _) = rows
    assert sentinel.endswith("_NFIELDS"), f"{table}: the section must end with its *_NFIELDS"
    for name, value, comment in rows:
        assert isinstance(value, ast.Constant) and isinstance(value.value, int), f"{name}: not written out"
    for name, _, comment in columns:
        assert UNIT_AND_MEANING.match(comment), f"{name}: no '# unit: meaning' comment on its line"
    own = [(name, getattr(L, name)) for name, _, _ in columns if name not in SHARED]
    assert [value for _, value in own] == list(range(getattr(L, sentinel))), table
    for name, _, _ in columns:
        if name in SHARED:
            assert getattr(L, name) == getattr(L, SHARED[name])
    prefixes = {name.split("_")[0] for name, _, _ in rows}
    assert len(prefixes) == 1, f"{table}: one prefix per table, found {sorted(prefixes)}"


@pytest.mark.parametrize("table", sorted(TABLE_SECTIONS))
def test_nfields_is_the_column_count_the_kernel_reads(table):
    nfields = getattr(L, _integers(TABLE_SECTIONS[table])[-1][0])
    if table == "g":  # the one 1-D table with named fields: its length
        assert tables.FIXED_COLUMNS[TABLE_INDEX["g"]] == 0
        assert compile_run(warm_up_run()).state.g.shape == (nfields,)
    else:
        assert tables.FIXED_COLUMNS[TABLE_INDEX[table]] == nfields


def test_the_only_shared_column_is_declared():
    """No two names of a table share a number but the pair in :data:`SHARED`."""
    for table, rows in TABLE_SECTIONS.items():
        seen = {}
        for name, _, _ in _integers(rows):
            value = getattr(L, name)
            if value in seen:
                assert SHARED.get(name) == seen[value], f"{table}: {name} shares {value} with {seen[value]}"
            seen.setdefault(value, name)


@pytest.mark.parametrize("section", sorted(name for name in SECTIONS if name.startswith("#")))
def test_codes_are_explicit_and_distinct(section):
    rows = _integers(SECTIONS[section])
    values = [getattr(L, name) for name, _, _ in rows]
    assert len(set(values)) == len(values), section
    for name, value, _ in rows:
        assert not isinstance(value, (ast.Tuple, ast.Call, ast.GeneratorExp)), f"{name}: not written out"
    for name, node, _ in SECTIONS[section]:
        if name.endswith("_NAMES") and isinstance(getattr(L, name), tuple):  # one name per code 0 .. n - 1
            assert set(range(len(getattr(L, name)))) <= set(values), name


def test_every_layout_constant_is_in_a_section():
    placed = {name for rows in SECTIONS.values() for name, _, _ in rows}
    public = {name for name, value in vars(L).items() if name.isupper() and not name.startswith("_")}
    assert public == placed


def test_table_numbers_are_the_tables_indices():
    """``T_X`` is the index of table ``x`` in ``TABLES``, in tables.py and as state.py re-exports it."""
    expected = {f"T_{name.upper()}": i for i, (name, _, _) in enumerate(tables.TABLES)}
    written = {name: value for name, value in vars(tables).items() if name.startswith("T_")}
    assert written == expected
    assert {name: getattr(state, name) for name in expected} == expected


def test_no_names_made_through_globals():
    """Every name of the kernel is written where grep finds it: no ``globals()``, ``vars()`` or
    ``setattr`` on a module."""
    for path in sorted(KERNEL.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("globals", "vars", "setattr"), f"{path.name}:{node.lineno}"
