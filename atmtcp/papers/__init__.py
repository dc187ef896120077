"""One package per paper: ``atmtcp/papers/<key>/``, the key being the prefix of the paper's
target ids (``goyal1998``, ``goyal1997``, ``cheon``, ...).

A paper's package holds everything of that paper a reader may want to open:
``experiments.py`` (its runs and their reductions), ``claims.py`` (its sentences as checks),
``figures.py`` (its tables and figures), and, for some, ``scenario.py`` (its networks and
settings). Its ``__init__`` declares:

- ``EXPERIMENTS``: the :class:`atmtcp.experiment.Experiment` of each simulated target;
- ``CLAIMS``: its :class:`atmtcp.claims.Claim` list;
- ``NOTEBOOK``: the notebook (``notebooks/<NOTEBOOK>.ipynb``) that renders the paper; several
  papers may share one (goyal1997's slides are rendered with goyal1998);
- ``TABLE_TARGETS`` and ``FIGURE_TARGETS``: the target ids the notebook writes as a table
  (``.md`` + ``.csv``) and as a figure (``.png``), under ``figures/<key>/``;
- ``ORDER``: its place in the registry and the report (the papers' chronological reading order);
- ``TCP_SETTINGS``: its TCP, setting by setting, with the sentence deciding each
  (:mod:`atmtcp.tcp_settings`; the list lives in the paper's scenario module);
- optionally ``TCP_BEHAVIOUR``: its sentences on how its simulated TCP behaved, each a
  :class:`atmtcp.tcp_settings.BehaviourCheck` on the headline runs (the notebook writes them as
  ``<key>.tcp_behaviour``, the docs page shows them);
- optionally ``TITLES``: titles of figure targets that have no experiment.

Its reference numbers are ``data/reference/<key>.csv``. Nothing else lists the papers: this
module finds the packages, and the Snakefile and the registry below read them.

The packages are found, and imported, at the first look-up of :data:`PAPERS` or :data:`EXPERIMENTS`
(``__getattr__``), not when one paper's module is imported: the atlas or the benchmark builds one
paper's scenario without importing every paper's experiments.
"""
from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from types import ModuleType


@functools.cache
def _papers() -> dict[str, ModuleType]:
    """:data:`PAPERS`: every subpackage, imported, in the order of its ``ORDER``."""
    found = {info.name: importlib.import_module(f"{__name__}.{info.name}")
             for info in pkgutil.iter_modules(__path__) if info.ispkg}
    return dict(sorted(found.items(), key=lambda item: (item[1].ORDER, item[0])))


@functools.cache
def _experiments() -> dict:
    """:data:`EXPERIMENTS`: every paper's experiments, keyed by target id."""
    return {e.id: e for paper in _papers().values() for e in paper.EXPERIMENTS}


PAPERS: dict[str, ModuleType]
"""Paper key -> its package, in the order of each package's ``ORDER``."""
EXPERIMENTS: dict
"""Every simulated target of every paper: target id -> Experiment."""
_LAZY = {"PAPERS": _papers, "EXPERIMENTS": _experiments}


def __getattr__(name: str):
    """:data:`PAPERS` and :data:`EXPERIMENTS`, found at their first look-up (see the module docstring)."""
    if name in _LAZY:
        return _LAZY[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def tcp_settings() -> dict:
    """Paper key -> its ``TCP_SETTINGS`` (docs/modelling.md, "What a paper leaves unsaid").

    Returns
    -------
    dict
    """
    return {key: paper.TCP_SETTINGS for key, paper in _papers().items()}


def citation(key: str) -> str:
    """The paper's reference as its package docstring opens: authors, title and venue.

    Parameters
    ----------
    key : str
        A paper key (:data:`PAPERS`).

    Returns
    -------
    str
    """
    first = " ".join(_papers()[key].__doc__.split("\n\n")[0].split())
    quoted = re.match(r'.*?"[^"]+"(?: \([^)]*\))?', first)
    return (quoted.group(0) if quoted else first.split(" See :mod:")[0].rstrip(".")) + "."


def paper_of(target_id: str) -> str:
    """The paper key of a target id: ``goyal1998.table1`` -> ``goyal1998``.

    Parameters
    ----------
    target_id : str
        A target id.

    Returns
    -------
    str
    """
    return target_id.split(".")[0]


def notebooks() -> dict[str, tuple[str, ...]]:
    """Notebook name -> the paper keys it renders.

    Returns
    -------
    dict of str to tuple of str
    """
    out: dict[str, tuple[str, ...]] = {}
    for key, paper in _papers().items():
        out[paper.NOTEBOOK] = out.get(paper.NOTEBOOK, ()) + (key,)
    return out


def claims_of(*keys: str) -> list:
    """The claims of the given papers, in the order given.

    Parameters
    ----------
    *keys : str
        Paper keys.

    Returns
    -------
    list of atmtcp.claims.Claim
    """
    return [claim for key in keys for claim in _papers()[key].CLAIMS]


def targets_of(*keys: str, kind: str = "experiments") -> list[str]:
    """The target ids of the given papers: simulated (``experiments``), written as a table
    (``tables``) or as a figure (``figures``).

    Parameters
    ----------
    *keys : str
        Paper keys.
    kind : str
        ``"experiments"``, ``"tables"`` or ``"figures"``.

    Returns
    -------
    list of str
    """
    attribute = {"experiments": "EXPERIMENTS", "tables": "TABLE_TARGETS", "figures": "FIGURE_TARGETS"}[kind]
    ids = []
    for key in keys:
        items = getattr(_papers()[key], attribute)
        ids += [e.id for e in items] if kind == "experiments" else list(items)
    return ids


def title_of(target_id: str) -> str:
    """A target's title: its experiment's, or one its paper gives in ``TITLES`` (a figure drawn
    without a simulation, such as cheon's Fig. 12).

    Parameters
    ----------
    target_id : str
        A target id.

    Returns
    -------
    str
        The title; the id itself if neither gives one.
    """
    if target_id in _experiments():
        return _experiments()[target_id].title
    return getattr(_papers()[paper_of(target_id)], "TITLES", {}).get(target_id, target_id)


def _numbers(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``1-3, 5``."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)


def targets_summary(key: str) -> str:
    """The paper's targets in a few words, as the README's table of papers gives them: its
    numbered tables and figures (``<key>.tableN``, ``<key>.figN``), then how many other targets
    (studies and the like; ``atmtcp list`` names them). E.g. ``Tables 1-9, Figs. 2, 5-7, 9 more``.

    Parameters
    ----------
    key : str
        A paper key.

    Returns
    -------
    str
    """
    ids = list(dict.fromkeys(targets_of(key) + targets_of(key, kind="tables") + targets_of(key, kind="figures")))
    numbered = {"table": [], "fig": []}
    others = 0
    for target in ids:
        match = re.fullmatch(rf"{re.escape(key)}\.(table|fig)(\d+)", target)
        if match:
            numbered[match.group(1)].append(int(match.group(2)))
        else:
            others += 1
    names = {"table": ("Table", "Tables"), "fig": ("Fig.", "Figs.")}
    parts = [f"{names[kind][len(numbers) > 1]} {_numbers(numbers)}" for kind, numbers in numbered.items() if numbers]
    if others:
        parts.append(f"{others} more" if parts else f"{others} targets")
    return ", ".join(parts)
