"""The labs (``notebooks/labs/``): for each, its network, the settings it compares, its seeds and run length,
and the shorter quick mode the tests use. ``docs/exercises.md`` has the same experiments as shell commands."""
from __future__ import annotations

from dataclasses import dataclass

from .. import model as m
from .runs import LabNetwork, LabRuns, Setting, run_settings


@dataclass(frozen=True)
class Lab:
    """A lab: what it compares (``settings``) where (``network``), with which seeds for how long; ``quick_seeds``
    and ``quick_duration_s`` are the test suite's shorter runs (the notebook's ``quick`` parameter)."""

    key: str
    title: str
    source: str
    network: LabNetwork
    settings: tuple[Setting, ...]
    seeds: tuple[int, ...]
    duration_s: float
    quick_seeds: tuple[int, ...]
    quick_duration_s: float

    def run(self, quick: bool = False) -> LabRuns:
        """Every setting with every seed (a few seconds of CPU; ``quick``: the test suite's shorter runs)."""
        seeds, duration = (self.quick_seeds, self.quick_duration_s) if quick else (self.seeds, self.duration_s)
        return run_settings(self.network, self.settings, seeds, duration)


def _policies(*names: str, **extra) -> tuple[Setting, ...]:
    return tuple(Setting(name, {"policy": name, **extra}) for name in names)


def _flavours(*names: str) -> tuple[Setting, ...]:
    return tuple(Setting(name, {"tcp": name}) for name in names)


LAN = dict(buffer=1000, tcp="vanilla")
LABS = {lab.key: lab for lab in (
    Lab("lab1", "Tail drop, EPD and Selective Drop", "goyal1998 4.1-4.2, Tables 1-2; exercise 1",
        LabNetwork("goyal1998 LAN, 5 vanilla TCP sources, 1000 cells", network="lan", fixed=LAN),
        _policies("tail", "epd", "selective_drop"), (0, 1, 2, 3, 4), 10.0, (0, 1), 2.0),
    Lab("lab2", "Fair Buffer Allocation's parameter Z", "goyal1998 4.2-4.2.1; exercise 6",
        LabNetwork("goyal1998 LAN, 5 vanilla TCP sources, 1000 cells, FBA with R = 900", network="lan",
                   fixed={**LAN, "policy": "fba"}),
        tuple(Setting(f"Z = {z:g}", {"z": z}) for z in (0.2, 0.5, 0.8, 1.0)), (0, 1, 2, 3, 4), 10.0, (0, 1), 2.0),
    Lab("lab3", "Fast retransmit in the WAN", "goyal1998 5.1 and 7, Tables 4 and 6; exercise 3",
        LabNetwork("goyal1998 WAN, 5 sources, 12000 cells, Selective Drop", network="wan",
                   fixed={"buffer": 12000, "policy": "selective_drop"}),
        _flavours("vanilla", "reno", "sack"), (0, 1, 2), 10.0, (0, 1), 3.0),
    Lab("lab4", "SACK on the satellite link", "goyal1997, the satellite slides; exercise 7",
        LabNetwork("goyal1997 satellite, 5 sources, 200000 cells, Selective Drop", network="satellite",
                   fixed={"buffer": 200000, "policy": "selective_drop"}),
        _flavours("reno", "sack"), (0, 1, 2), 50.0, (0,), 12.0),
    Lab("lab5", "ESPD against EPD", "cheon 3.3 and 4.2, Tables 1-2",
        LabNetwork("cheon symmetric parking lot, 10 Reno sessions, 500-byte packets, 2000 cells",
                   atlas="cheon_symmetric", fixed={"tcp": "reno"}),
        _policies("epd", "espd"), (1, 2, 3, 4, 5), 3.0, (1, 2), 1.5),
    Lab("lab6", "Drop from front", "lakshman 4, Figs. 7-8",
        LabNetwork("lakshman, 3 Reno sources (40/60/80 ms), 1152 cells", atlas="lakshman_small",
                   fixed={"tcp": "reno"}),
        (Setting("cell_tail", {"policy": "tail"}), Setting("cell_front", {"policy": "cell_front"}),
         Setting("frame_tail", {"policy": "ppd"}), Setting("frame_front", {"policy": "frame_front"})),
        (1, 2, 3, 4, 5), 40.0, (1, 2), 6.0),
    Lab("lab7", "EWA against Drop-Tail", "ewa 2 and 4.1",
        LabNetwork("ewa section 2: ten Reno connections onto one VC, 10 -> 5 -> 2 open", atlas="ewa_section2",
                   fixed={"tcp": "reno"}),
        _policies("drop_tail", "ewa"), (1, 2, 3), 20.0, (1,), 3.0),
)}
"""Every lab by key (``Grader(key)``, ``notebooks/labs/<key>_*.ipynb``)."""


def lab(key: str) -> Lab:
    """The lab ``key`` (a clear error for an unknown one)."""
    if key not in LABS:
        raise m.ModelError("labs", "lab", key, f"one of {tuple(LABS)}")
    return LABS[key]
