"""The validation's targets: ``validation.<scenario>``, one experiment per scenario of
:mod:`atmtcp.validation.scenarios`, whose grid is the scenario's axes x side (``atmtcp`` and its peer,
``ns-3`` or ``YATS``) x seed. Not part of ``make reproduce``: ``make validate`` builds them (the ns-3 side
needs the ``validate`` extra; the YATS side a YATS prefix, ``make validate YATS=<prefix>``).
"""
from __future__ import annotations

import xarray as xr

from ..experiment import Experiment, grid
from .scenarios import QUICK_SEEDS, SCENARIOS, SEEDS, run_point

PREFIX = "validation"
REFERENCES = ("goyal1998 and ewa (CITATION.cff); the peers: ns-3 (https://www.nsnam.org), the ns3 wheel of PyPI; "
              "YATS/Luayats (https://github.com/hleuwer/luayats), built by benchmarks/yats/build.sh")


def target(key: str) -> str:
    """``goyal_ubr`` -> ``validation.goyal_ubr``."""
    return f"{PREFIX}.{key}"


def points_of(key: str):
    """The ``points`` function of scenario ``key``: its axes x side x seed, without the peer's points it
    skips."""
    s = SCENARIOS[key]

    def points(quick: bool) -> list[dict]:
        seeds = list(QUICK_SEEDS if quick else SEEDS)
        everything = grid(**s.axes, side=list(s.sides), seed=seeds)
        return [p for p in everything if p["side"] == "atmtcp" or s.peer_runs(p)]
    return points


def peer_version(peer: str) -> str:
    """The peer's name and version, as the table's ``peer`` column shows it."""
    if peer == "YATS":
        from . import yats
        return yats.version() if yats.binary() else "YATS (absent)"
    from .ns3_run import available, version
    return version() if available() else "ns-3 (absent)"


def runner_of(key: str):
    """The ``run_point`` function of scenario ``key`` (:func:`atmtcp.validation.scenarios.run_point`)."""
    def run(point: dict, quick: bool) -> xr.Dataset:
        return run_point(key, point, quick)
    return run


def parameters_of(key: str):
    """The ``parameters`` function of scenario ``key``: its title, the peer's version and seeds, its note."""
    def parameters(quick: bool) -> dict:
        s = SCENARIOS[key]
        return {"scenario": key, "scenario_title": s.title, "peer_version": peer_version(s.peer_name),
                "peer_seeds": s.peer_seeds, "note": s.note or "-"}
    return parameters


EXPERIMENTS = [Experiment(target(key), f"Validation: {s.title}", points_of(key), runner_of(key),
                          parameters=parameters_of(key), attrs={"references": REFERENCES})
               for key, s in SCENARIOS.items()]
