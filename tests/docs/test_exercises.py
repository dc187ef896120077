"""The numbers of docs/exercises.md, from the commands the exercises print (issue 26: an answer states
what a run printed, so a change of the model that moves it fails here and the page must be updated).
Each run is a 10 s simulation of about a third of a second."""
import re

import pytest

from atmtcp.cli import main

LAN = ["run", "--network", "lan", "--sources", "5", "--buffer", "1000", "--tcp", "vanilla", "--duration", "10"]


def efficiency_fairness(capsys, args) -> tuple[str, str]:
    assert main(args) == 0
    out = capsys.readouterr().out
    match = re.search(r"efficiency (\d\.\d{3}) .*fairness (\d\.\d{3})", out)
    return match.group(1), match.group(2)


@pytest.mark.parametrize("policy, seed, expected", [
    ("tail", 0, ("0.159", "0.832")), ("tail", 1, ("0.156", "0.786")), ("tail", 2, ("0.097", "0.986")),
    ("epd", 0, ("0.426", "0.978")), ("epd", 1, ("0.314", "0.897")), ("epd", 2, ("0.436", "0.796")),
    ("selective_drop", 0, ("0.628", "0.918")), ("selective_drop", 1, ("0.723", "0.949")),
    ("selective_drop", 2, ("0.611", "0.976")),
])
def test_exercise_1_table(capsys, policy, seed, expected):
    """Exercise 1's answer: efficiency / fairness of tail drop, EPD and Selective Drop, seeds 0-2."""
    assert efficiency_fairness(capsys, LAN + ["--policy", policy, "--seed", str(seed)]) == expected


@pytest.mark.parametrize("seed", [0, 1])
def test_exercise_4_phase_lock(capsys, seed):
    """Exercise 4's answer: "The two deterministic runs print exactly the same numbers: efficiency 0.942,
    fairness 0.202"."""
    args = LAN + ["--policy", "tail", "--seed", str(seed), "--contention", "deterministic"]
    assert efficiency_fairness(capsys, args) == ("0.942", "0.202")


@pytest.mark.parametrize("network, sources, max_queue", [("lan", "5", 7591), ("lan", "15", 22831),
                                                         ("wan", "5", 59235)])
def test_exercise_5_largest_queue(capsys, network, sources, max_queue):
    """Exercise 5's answer: the largest queue of the infinite buffer (7591, 22831, 59235 cells)."""
    args = ["run", "--network", network, "--sources", sources, "--buffer", "inf", "--tcp", "vanilla", "--duration", "10"]
    assert main(args) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if l.strip().startswith("SW1->SW2"))
    assert f" {max_queue} " in f" {line} "
