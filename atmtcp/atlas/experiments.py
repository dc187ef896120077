"""The atlas's targets: one simulated experiment per scenario (``atlas.<scenario>``, grid policy x tcp x
seed over the policies of its layer), so that a cluster runs the grid as one job per scenario, and
``atlas.grid``, which stacks them into one Dataset with the dimensions policy, tcp, scenario and seed
(NaN where a policy does not act at a scenario's layer).

Seeds: :data:`SEEDS` in full mode, each scenario at its paper's own run length (the whole grid fits the 20
minutes on 2 cores of issue 28 without shortening any run: README, "The atlas"); quick mode runs
:data:`QUICK_SEEDS` seeds of each scenario's ``quick_duration_s``. A seed draws what its scenario's paper
leaves random (goyal: the slotted ports' order of a slot's arrivals; cheon and ewa: the start times; lakshman:
the links' delays, the slot order and the randomized tail), the same draws for every policy and TCP, so that
differences between policies are paired by seed.
"""
from __future__ import annotations

import xarray as xr

from ..experiment import Experiment, grid
from .grid import PARAMETER_RULE, POLICIES, SCENARIOS, TCPS, policies_of
from .measures import measure_cell

SEEDS = tuple(range(1, 11))
QUICK_SEEDS = (1, 2)
PREFIX = "atlas"
GRID = f"{PREFIX}.grid"


def seeds(quick: bool) -> list[int]:
    """The seeds of every grid cell: :data:`SEEDS`, or quick mode's."""
    return list(QUICK_SEEDS if quick else SEEDS)


def target(scenario: str) -> str:
    """``goyal_lan`` -> ``atlas.goyal_lan``."""
    return f"{PREFIX}.{scenario}"


def points_of(scenario: str):
    """The ``points`` of a scenario's experiment: every policy of its layer, every TCP, every seed."""
    def points(quick: bool) -> list[dict]:
        return grid(policy=list(policies_of(SCENARIOS[scenario].layer)), tcp=list(TCPS), seed=seeds(quick))
    return points


def runner_of(scenario: str):
    """The ``run_point`` of a scenario's experiment: one grid cell measured
    (:func:`atmtcp.atlas.measures.measure_cell`)."""
    def run_point(point: dict, quick: bool) -> xr.Dataset:
        return measure_cell(scenario, point["policy"], point["tcp"], point["seed"], quick)
    return run_point


def parameters_of(scenario: str):
    """The ``parameters`` of a scenario's experiment: the scenario, its length and the parameter rule."""
    def parameters(quick: bool) -> dict:
        s = SCENARIOS[scenario]
        return {"scenario": scenario, "scenario_title": s.title, "scenario_paper": s.paper, "layer": s.layer,
                "duration_s": s.length(quick) or "the paper's own", "connections": s.connections,
                "parameter_rule": PARAMETER_RULE}
    return parameters


def stack(parents: dict[str, xr.Dataset]) -> xr.Dataset:
    """The per-scenario Datasets on one ``scenario`` axis, every policy on the ``policy`` axis (NaN where
    it does not apply), in the order of :data:`POLICIES`, :data:`TCPS` and :data:`SCENARIOS`."""
    parts = []
    for key in SCENARIOS:
        ds = parents[target(key)]
        ds = ds.assign_coords(policy=ds.policy.values.astype(object), tcp=ds.tcp.values.astype(object))
        parts.append(ds[list(ds.data_vars)].expand_dims(scenario=[key]))  # (object labels: no width is cut)
    out = xr.concat(parts, dim="scenario", join="outer", combine_attrs="drop")
    out = out.reindex(policy=list(POLICIES), tcp=list(TCPS)).transpose("policy", "tcp", "scenario", "seed")
    out = out.assign_coords(
        layer=("scenario", [SCENARIOS[k].layer for k in SCENARIOS]),
        scenario_paper=("scenario", [SCENARIOS[k].paper for k in SCENARIOS]))
    out.attrs["parameter_rule"] = PARAMETER_RULE
    return out


ATLAS_REFERENCES = ("goyal1998, goyal1997, cheon, lakshman and ewa (CITATION.cff); the atlas compares their "
                    "policies in each other's networks (atmtcp.atlas) and has no paper numbers")

EXPERIMENTS = [
    *(Experiment(target(key), f"Atlas: every policy and TCP in {s.title}", points_of(key), runner_of(key),
                 parameters=parameters_of(key), attrs={"references": ATLAS_REFERENCES})
      for key, s in SCENARIOS.items()),
    Experiment(GRID, "Atlas: every policy, TCP and scenario on one grid", parents=tuple(target(k) for k in SCENARIOS),
               derive=stack, attrs={"references": ATLAS_REFERENCES}),
]
