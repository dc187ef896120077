"""goyal1997: slides of ATM Forum 97-0423, SACK and UBR+ over LAN, WAN and satellite.

The LAN/WAN tables of the slides are goyal1998's Tables 6-9 (see :mod:`.goyal1998`).
The satellite parameters and the choices behind them are in
:data:`atmtcp.papers.goyal1998.scenario.NETWORKS` (``"satellite"``).
"""
from __future__ import annotations

from dataclasses import replace

import xarray as xr

from ... import model as m
from ...simulate import simulate
from ...topologies import n_source_network
from ...experiment import Experiment, cwnd_trace
from ..goyal1998.experiments import QUICK_TABLE_SEEDS, SACK_POLICIES, TABLE_SEEDS, same_runs_as
from ..goyal1998.scenario import NETWORKS, goyal_parameters, goyal_run, goyal_tcp
from ..goyal1998.summary import run_summary


SATELLITE_SEEDS = TABLE_SEEDS
"""As goyal1998's tables: synchronized starts, the seed drawing the slotted ports' order of a slot's
arrivals (the slides give no start times; goyal1998 3.1's "at the same time" is the group's setup)."""


def satellite_points(quick: bool) -> list[dict]:
    """The satellite tables' points: SACK, Reno, vanilla x the satellite buffers x the UBR, EPD and
    Selective Drop columns x :data:`SATELLITE_SEEDS` (quick: one seed)."""
    out = []
    for tcp in ("sack", "reno", "vanilla"):
        for buffer in NETWORKS["satellite"]["buffers"]:
            for policy in SACK_POLICIES:
                for seed in QUICK_TABLE_SEEDS[:1] if quick else SATELLITE_SEEDS:
                    out.append({"tcp": tcp, "buffer": buffer, "policy": policy, "seed": seed})
    return out


def satellite_run(point: dict, quick: bool) -> xr.Dataset:
    """5 sources over the satellite N-source network (MSS 9180)."""
    run = goyal_run("satellite", 5, point["buffer"], point["policy"], point["tcp"], point["seed"], quick)
    return run_summary(run)


SATELLITE_READINGS = {
    "satellite hop 250 ms": {"trunk_delay_s": 0.25},
    "satellite hop 300 ms": {"trunk_delay_s": 0.30},
    "25 s runs": {"duration_s": 25.0},
    "100 s runs": {"duration_s": 100.0},
}
"""What the slides leave open about the satellite network (:data:`atmtcp.papers.goyal1998.scenario.NETWORKS`), each
changed alone from the headline's 275 ms SW1-SW2 hop and 50 s runs: the hop's delay (a geostationary
up- and down-link is 240-280 ms) and the run's length."""
QUICK_SATELLITE_READINGS = ("satellite hop 250 ms",)
SATELLITE_STUDY_SEEDS = (0, 1, 2)


def satellite_study_points(quick: bool) -> list[dict]:
    """The satellite tables' cells under each reading of :data:`SATELLITE_READINGS`."""
    readings = QUICK_SATELLITE_READINGS if quick else tuple(SATELLITE_READINGS)
    return [dict(point, reading=reading) for reading in readings for point in satellite_points(quick)
            if quick or point["seed"] in SATELLITE_STUDY_SEEDS]


def satellite_study_run(point: dict, quick: bool) -> xr.Dataset:
    """One satellite table cell under the point's reading of :data:`SATELLITE_READINGS` (the hop's delay or
    the run's length), summarized as the tables are."""
    reading = SATELLITE_READINGS[point["reading"]]
    duration = reading.get("duration_s")
    run = goyal_run("satellite", 5, point["buffer"], point["policy"], point["tcp"], point["seed"], quick,
                    duration_s=None if quick else duration, trunk_delay_s=reading.get("trunk_delay_s"))
    return run_summary(run)


STALL_INITIAL_SSTHRESH = 131072
"""Congestion avoidance from 128 KB, so that CWND reaches MSS*MSS = 262144 bytes in about
250 RTTs (7.5 s) instead of the 11.5 s it would take from 64 KB."""


def stall_points(quick: bool) -> list[dict]:
    """One point per increase rule: integer bytes (the stall), the slides' Solution 1 (every N ACKs) and
    floating point."""
    return [{"increase": rule} for rule in ("integer", "integer_every_n", "float")]


def stall_run(point: dict, quick: bool) -> xr.Dataset:
    """One WAN connection (window 600000 bytes, infinite buffers) whose congestion avoidance
    uses integer bytes (stalls at MSS*MSS), the slides' Solution 1 (every N = 4 ACKs, stall
    moves to 4*MSS*MSS, above the window) or floating point."""
    network = n_source_network(1, NETWORKS["wan"]["delay_s"], m.PortConfig(None))
    config = goyal_tcp("reno", 512, NETWORKS["wan"]["rcv_wnd"], initial_ssthresh=STALL_INITIAL_SSTHRESH,
                       increase=point["increase"], increase_every_n=4)
    run = m.Run(network, (m.Connection("S1", "D1", config),), 12.0 if quick else 15.0,
                trace=m.TraceConfig(connections=(0,)))
    ds = simulate(run)
    out = cwnd_trace(ds)
    out["final_cwnd"] = xr.DataArray(float(out.cwnd.values[-1]), attrs={"units": "byte"})
    out["delivered_bytes"] = ds.delivered_bytes.sel(source=0)
    return out


EXPERIMENTS = [
    Experiment("goyal1997.satellite_efficiency", "Satellite: efficiency of SACK, Reno, vanilla over UBR+",
               satellite_points, satellite_run),
    Experiment("goyal1997.satellite_fairness", "Satellite: fairness of SACK, Reno, vanilla over UBR+",
               parents=("goyal1997.satellite_efficiency",), derive=same_runs_as("goyal1997.satellite_efficiency")),
    Experiment("goyal1997.satellite_study", "Satellite: the hop delay and run length the slides leave open",
               satellite_study_points, satellite_study_run),
    Experiment("goyal1997.cwnd_integer_stall", "CWND stuck at MSS*MSS with integer arithmetic, and Solution 1",
               stall_points, stall_run),
]
EXPERIMENTS = [replace(e, parameters=goyal_parameters) for e in EXPERIMENTS]
