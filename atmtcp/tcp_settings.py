"""Which sentence decides each TCP setting of a paper: the rule for what a paper leaves unsaid.

The rule, chosen before the results and applied to all five documents (docs/modelling.md, "What a paper
leaves unsaid"):

1. A paper's explicit statement about the TCP it simulated wins: a sentence that names the setting
   (:data:`PAPER`), or one that states how the simulated TCP behaved (:data:`BEHAVIOUR`: "approximately
   one segment every round-trip time", "most losses ... are detected by the fast retransmit procedure"),
   which decides the setting that produces that behaviour. Where sentences conflict, the more specific
   statement about the paper's own simulation wins over a general description of TCP. Each behaviour
   sentence is also a check on the headline runs (:class:`BehaviourCheck`, on the paper's docs page).
2. Where a paper only names a TCP ("Reno", "Jacobson's", "4.3-Reno"), a setting it does not state
   is 4.4BSD-Lite's implementation of that TCP (:meth:`atmtcp.model.TcpConfig.bsd44`), the
   "Reno" of 1996-97 and the reference implementation of the era.
3. The other plausible reading of an unstated setting becomes a sensitivity target of its own.

Each paper's scenario module lists its :class:`Setting` for every field of
:data:`atmtcp.model.BSD44_PROFILE`, each with the sentence it rests on, and builds its
:class:`~atmtcp.model.TcpConfig` from that list with :func:`tcp_from`, so the record and the
simulated TCP cannot differ.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import model as m

PAPER = "paper"
BEHAVIOUR = "paper (behaviour)"
BSD = "4.4BSD-Lite"
SOURCES = (PAPER, BEHAVIOUR, BSD)
PER_SCENARIO = None
"""A stated value that differs between a paper's scenarios: the scenario passes it to :func:`tcp_from`."""

FIELDS = tuple(m.BSD44_PROFILE)
"""The settings every paper's record covers: those a paper may leave unsaid."""
BEFORE_THE_RULE = dict(increase="float", ssthresh_rule="half_cwnd", recovery_exit_opens=False)
"""How the project read an unstated TCP before the rule: goyal1998's explicit TCP (section 2, 5.1). The
sensitivity targets (``ewa.tcp_sensitivity``, ``lakshman.tcp_sensitivity``) run it beside the headline."""


@dataclass(frozen=True)
class Setting:
    """One TCP setting of one paper: its value, who decides it (:data:`PAPER`, :data:`BEHAVIOUR` or
    :data:`BSD`) and the sentence that decides it (the paper's words, or what the paper names and
    4.4BSD-Lite's code).

    Parameters
    ----------
    field : str
        One of :data:`FIELDS`.
    value : object
        The setting's value (:data:`PER_SCENARIO`: each scenario gives its own).
    source : str
        One of :data:`SOURCES`.
    sentence : str
        The sentence that decides it.

    Raises
    ------
    atmtcp.model.ModelError
        If ``field`` or ``source`` is unknown, or a 4.4BSD-Lite setting's value is not 4.4BSD-Lite's.
    """

    field: str
    value: object
    source: str
    sentence: str

    def __post_init__(self):
        m._check(self.field in FIELDS, "Setting", "field", self.field, f"one of {FIELDS}")
        m._check(self.source in SOURCES, "Setting", "source", self.source, f"one of {SOURCES}")
        if self.source == BSD:
            m._check(self.value == m.BSD44_PROFILE[self.field], "Setting", "value", self.value,
                     f"4.4BSD-Lite's {self.field} = {m.BSD44_PROFILE[self.field]!r}")


def stated(field: str, value, sentence: str) -> Setting:
    """A setting the paper states (``value`` :data:`PER_SCENARIO` if its scenarios differ).

    Parameters
    ----------
    field : str
        One of :data:`FIELDS`.
    value : object
        The stated value, or :data:`PER_SCENARIO`.
    sentence : str
        The paper's words.

    Returns
    -------
    Setting
    """
    return Setting(field, value, PAPER, sentence)


def behaved(field: str, value, sentence: str) -> Setting:
    """A setting decided by what the paper says its simulated TCP did (``sentence``: the quote, and which
    value produces that behaviour and why; the paper's :class:`BehaviourCheck` measures it).

    Parameters
    ----------
    field : str
        One of :data:`FIELDS`.
    value : object
        The value that produces the stated behaviour.
    sentence : str
        The quote and the reasoning.

    Returns
    -------
    Setting
    """
    return Setting(field, value, BEHAVIOUR, sentence)


def unsaid(field: str, names: str) -> Setting:
    """A setting the paper leaves unsaid: 4.4BSD-Lite's value; ``names`` quotes what the paper names.

    Parameters
    ----------
    field : str
        One of :data:`FIELDS`.
    names : str
        What the paper names (its TCP, its simulator).

    Returns
    -------
    Setting
    """
    return Setting(field, m.BSD44_PROFILE.get(field), BSD, names)


def check_complete(settings: tuple[Setting, ...], paper: str) -> None:
    """Every field of :data:`FIELDS` decided exactly once.

    Parameters
    ----------
    settings : tuple of Setting
        A paper's ``TCP_SETTINGS``.
    paper : str
        The paper's key, for the error.

    Raises
    ------
    atmtcp.model.ModelError
        Naming the fields missing or decided twice.
    """
    fields = [s.field for s in settings]
    missing = [f for f in FIELDS if f not in fields]
    repeated = sorted({f for f in fields if fields.count(f) > 1})
    if missing or repeated:
        raise m.ModelError(paper, "TCP_SETTINGS", fields, f"each of {FIELDS} once (missing {missing}, "
                           f"repeated {repeated})")


def tcp_from(flavor: str, settings: tuple[Setting, ...], **scenario) -> m.TcpConfig:
    """The paper's TCP: 4.4BSD-Lite's profile, the paper's stated settings over it, and the
    scenario's own fields (window, MSS, initial ssthresh, and every :data:`PER_SCENARIO` value).

    Parameters
    ----------
    flavor : str
        One of :data:`atmtcp.model.FLAVORS`.
    settings : tuple of Setting
        The paper's ``TCP_SETTINGS``.
    **scenario
        :class:`~atmtcp.model.TcpConfig` fields the scenario sets.

    Returns
    -------
    atmtcp.model.TcpConfig

    Raises
    ------
    atmtcp.model.ModelError
        If a :data:`PER_SCENARIO` setting is not in ``scenario``, or a value is out of range.
    """
    chosen = {}
    for s in settings:
        if s.source == BSD:
            continue
        if s.value is PER_SCENARIO:
            if s.field not in scenario:
                raise m.ModelError("tcp_config", s.field, None, "given by the scenario (the paper states it "
                                   "per scenario)")
            continue
        chosen[s.field] = s.value
    return m.TcpConfig.bsd44(flavor, **{**chosen, **scenario})


def _value(s: Setting, show=str) -> str:
    return "per scenario" if s.value is PER_SCENARIO else show(s.value)


_MARKS = {PAPER: "stated", BEHAVIOUR: "behaviour", BSD: "BSD"}


def _cell(s: Setting) -> str:
    return f"{_value(s)} ({_MARKS[s.source]})"


def markdown_table(records: dict[str, tuple[Setting, ...]]) -> str:
    """Settings (rows) by paper (columns), each value marked ``stated``, ``behaviour`` or ``BSD``.

    Parameters
    ----------
    records : dict of str to tuple of Setting
        Paper key -> its ``TCP_SETTINGS``.

    Returns
    -------
    str
        A Markdown table.
    """
    papers = list(records)
    lines = ["| setting | " + " | ".join(papers) + " |", "|---" * (len(papers) + 1) + "|"]
    for f in FIELDS:
        cells = [_cell(next(s for s in records[p] if s.field == f)) for p in papers]
        lines.append(f"| {f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def sentences(settings: tuple[Setting, ...]) -> str:
    """The paper's record as a markdown list: each setting, its value and the sentence deciding it.

    Parameters
    ----------
    settings : tuple of Setting
        A paper's ``TCP_SETTINGS``.

    Returns
    -------
    str
    """
    return "\n".join(f"- `{s.field}` = {_value(s, repr)} ({s.source}): {s.sentence}" for s in settings)


@dataclass(frozen=True)
class BehaviourCheck:
    """A sentence in which a paper states how its simulated TCP behaved, measured on the headline runs.

    ``measure`` reads the headline datasets (target id -> dataset) and returns the measured value in
    ``units``; ``agrees`` says whether that value is what the sentence states (``paper`` says it in
    words). ``decides`` names the settings the sentence decides (:func:`behaved`) or confirms; ``other``
    reads the other reading's value from its sensitivity target (``other_reading`` names it), if one holds
    it. A check needs only the datasets of ``targets`` (and ``other_targets`` for ``other``).

    Parameters
    ----------
    name : str
        The check's name.
    where : str
        The paper's section.
    quote : str
        The sentence.
    decides : tuple of str
        The settings of :data:`FIELDS` it decides or confirms.
    paper : str
        What the sentence states, in words.
    units : str
        The measured value's unit.
    targets : tuple of str
        The headline targets ``measure`` reads.
    measure : callable
        ``measure({target: Dataset}) -> float``.
    agrees : callable
        ``agrees(value) -> bool``.
    other_reading : str
        The other reading's name (default none).
    other_targets : tuple of str
        The targets ``other`` reads.
    other : callable, optional
        ``other({target: Dataset}) -> float``: the other reading's value.

    Raises
    ------
    atmtcp.model.ModelError
        If ``decides`` names an unknown setting or ``targets`` is empty.
    """

    name: str
    where: str
    quote: str
    decides: tuple[str, ...]
    paper: str
    units: str
    targets: tuple[str, ...]
    measure: Callable[[dict], float]
    agrees: Callable[[float], bool]
    other_reading: str = ""
    other_targets: tuple[str, ...] = ()
    other: Callable[[dict], float] | None = None

    def __post_init__(self):
        for f in self.decides:
            m._check(f in FIELDS, "BehaviourCheck", "decides", f, f"settings of {FIELDS}")
        m._check(bool(self.targets), "BehaviourCheck", "targets", self.targets, "at least one headline target")

    def row(self, data: dict) -> dict:
        """The check's row: the sentence, what it decides, the paper's value, ours, and whether they agree.

        Parameters
        ----------
        data : dict of str to xarray.Dataset
            Target id -> its dataset; the check's ``targets`` among them.

        Returns
        -------
        dict
            ``check``, ``where``, ``quote``, ``decides``, ``paper``, ``measured``, ``units``, ``agrees``,
            ``other reading`` and ``other reading measured`` (NaN without its targets).

        Raises
        ------
        atmtcp.model.ModelError
            If a dataset of ``targets`` is missing.
        """
        missing = [t for t in self.targets if t not in data]
        m._check(not missing, "BehaviourCheck", "data", missing, f"the datasets of {self.targets}")
        value = float(self.measure(data))
        other = float(self.other(data)) if self.other and all(t in data for t in self.other_targets) else float("nan")
        return {"check": self.name, "where": self.where, "quote": self.quote, "decides": ", ".join(self.decides),
                "paper": self.paper, "measured": value, "units": self.units, "agrees": bool(self.agrees(value)),
                "other reading": self.other_reading, "other reading measured": other}


def behaviour_table(data: dict, checks) -> "pd.DataFrame":
    """One row per :class:`BehaviourCheck` (:meth:`BehaviourCheck.row`), for the paper's docs page.

    Parameters
    ----------
    data : dict of str to xarray.Dataset
        Target id -> its dataset.
    checks : iterable of BehaviourCheck
        The paper's checks.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``check``.
    """
    import pandas as pd
    return pd.DataFrame([c.row(data) for c in checks]).set_index("check")
