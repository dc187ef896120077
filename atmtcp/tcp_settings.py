"""Which sentence decides each TCP setting of a paper: the rule for what a paper leaves unsaid.

The rule, chosen before the results and applied to all five documents (docs/modelling.md, "What a paper
leaves unsaid"):

1. A paper's explicit statement about the TCP it simulated wins.
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

from . import model as m

PAPER = "paper"
BSD = "4.4BSD-Lite"
PER_SCENARIO = None
"""A stated value that differs between a paper's scenarios: the scenario passes it to :func:`tcp_from`."""

FIELDS = tuple(m.BSD44_PROFILE)
BEFORE_THE_RULE = dict(increase="float", ssthresh_rule="half_cwnd", recovery_exit_opens=False)
"""How the project read an unstated TCP before the rule: goyal1998's explicit TCP (section 2, 5.1). The
sensitivity targets (``ewa.tcp_sensitivity``, ``lakshman.tcp_sensitivity``) run it beside the headline."""
"""The settings every paper's record covers: those a paper may leave unsaid."""


@dataclass(frozen=True)
class Setting:
    """One TCP setting of one paper: its value, who decides it (:data:`PAPER` or :data:`BSD`) and the
    sentence that decides it (the paper's words, or what the paper names and 4.4BSD-Lite's code)."""

    field: str
    value: object
    source: str
    sentence: str

    def __post_init__(self):
        m._check(self.field in FIELDS, "Setting", "field", self.field, f"one of {FIELDS}")
        m._check(self.source in (PAPER, BSD), "Setting", "source", self.source, f"'{PAPER}' or '{BSD}'")
        if self.source == BSD:
            m._check(self.value == m.BSD44_PROFILE[self.field], "Setting", "value", self.value,
                     f"4.4BSD-Lite's {self.field} = {m.BSD44_PROFILE[self.field]!r}")


def stated(field: str, value, sentence: str) -> Setting:
    """A setting the paper states (``value`` :data:`PER_SCENARIO` if its scenarios differ)."""
    return Setting(field, value, PAPER, sentence)


def unsaid(field: str, names: str) -> Setting:
    """A setting the paper leaves unsaid: 4.4BSD-Lite's value; ``names`` quotes what the paper names."""
    return Setting(field, m.BSD44_PROFILE.get(field), BSD, names)


def check_complete(settings: tuple[Setting, ...], paper: str) -> None:
    """Every field of :data:`FIELDS` decided exactly once."""
    fields = [s.field for s in settings]
    missing = [f for f in FIELDS if f not in fields]
    repeated = sorted({f for f in fields if fields.count(f) > 1})
    if missing or repeated:
        raise m.ModelError(paper, "TCP_SETTINGS", fields, f"each of {FIELDS} once (missing {missing}, "
                           f"repeated {repeated})")


def tcp_from(flavor: str, settings: tuple[Setting, ...], **scenario) -> m.TcpConfig:
    """The paper's TCP: 4.4BSD-Lite's profile, the paper's stated settings over it, and the
    scenario's own fields (window, MSS, initial ssthresh, and every :data:`PER_SCENARIO` value)."""
    chosen = {}
    for s in settings:
        if s.source != PAPER:
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


def _cell(s: Setting) -> str:
    return f"{_value(s)} ({'stated' if s.source == PAPER else 'BSD'})"


def markdown_table(records: dict[str, tuple[Setting, ...]]) -> str:
    """Settings (rows) by paper (columns), each value marked ``stated`` or ``BSD``."""
    papers = list(records)
    lines = ["| setting | " + " | ".join(papers) + " |", "|---" * (len(papers) + 1) + "|"]
    for f in FIELDS:
        cells = [_cell(next(s for s in records[p] if s.field == f)) for p in papers]
        lines.append(f"| {f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def sentences(settings: tuple[Setting, ...]) -> str:
    """The paper's record as a markdown list: each setting, its value and the sentence deciding it."""
    return "\n".join(f"- `{s.field}` = {_value(s, repr)} ({s.source}): {s.sentence}" for s in settings)
