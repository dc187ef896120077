"""goyal1998: "Improving the performance of TCP over the ATM-UBR service".

Every target whose id starts with ``goyal1998.``. Choices the
paper leaves open are written where they are made (see also :mod:`.scenario`):

- Tables 1-7 (and goyal1997's satellite tables): the paper ran one simulation per cell, "All TCP
  sources start sending at the same time" (3.1). Ours are :data:`TABLE_SEEDS` runs of exactly that
  setup, which differ only in what the paper leaves random: the order in which a slotted switch
  port takes the cells of one slot (the seed draws it). Each cell is compared as a distribution
  (:mod:`atmtcp.reference`). Starts spread over [0, 10 ms) are a robustness study of their own
  (``goyal1998.start_jitter``), not the headline.
- The FBA factorial (4.2.1) and the Selective Drop Z study (4.2) come before the TCP
  enhancements of section 5, so they use vanilla TCP, like Tables 1-2.
- Figs. 2, 5, 6, 7: Fig. 2 is one source of the 5-source LAN with plain UBR, where the
  coarse timer shows; Figs. 5-7 are a single WAN connection that loses scripted segments
  in congestion avoidance, so that the mechanism shows in isolation.
"""
from __future__ import annotations

from dataclasses import replace

import math

import numpy as np
import xarray as xr

from ... import model as m
from ...simulate import simulate
from ...contention import CELL_ASSUMPTIONS, HEADLINE_CONTENTION
from ...experiment import Experiment, cwnd_trace, grid
from ...topologies import n_source_network
from .scenario import (
    BUFFER_FACTORS, JITTER_S, NETWORKS, buffer_cells, goyal_parameters, goyal_run, goyal_tcp,
)
from .summary import run_summary, summarize, with_buffer_cells

TABLE_POLICIES = ("ubr", "epd", "selective_drop", "fba")
SACK_POLICIES = ("ubr", "epd", "selective_drop")
TABLE_SEEDS, QUICK_TABLE_SEEDS = tuple(range(10)), (0, 1)
"""Synchronized-start runs per table cell: the paper's one run is one draw of their distribution."""
JITTER_SEEDS, QUICK_JITTER_SEEDS = (1, 2, 3), (1,)
"""Runs per cell of ``goyal1998.start_jitter`` (sources starting within :data:`JITTER_S`)."""


def _seeds(quick: bool) -> tuple[int, ...]:
    return QUICK_TABLE_SEEDS if quick else TABLE_SEEDS


def table_points(policies, networks=("lan", "wan")):
    """Rows of Tables 1-7: network x sources x buffer, columns: policy; plus seeds.

    The buffer axis is ``buffer_factor`` (1, 3): LAN 1000/3000 and WAN 12000/36000 cells
    share it with no empty cells; the variable ``buffer_cells`` gives the size."""
    def points(quick: bool) -> list[dict]:
        return grid(network=list(networks), sources=[5, 15], buffer_factor=list(BUFFER_FACTORS),
                    policy=list(policies), seed=list(_seeds(quick)))
    return points


def table_runner(tcp: str):
    """The ``run_point`` function of a table of ``tcp`` (Tables 1, 4, 6): one N-source run of the point's
    network, sources, buffer and policy, summarized (3.2's efficiency and fairness) with its buffer in
    cells."""
    def run_point(point: dict, quick: bool) -> xr.Dataset:
        point = dict(point)
        buffer = buffer_cells(point["network"], point.pop("buffer_factor"))
        return with_buffer_cells(run_summary(goyal_run(tcp=tcp, quick=quick, buffer=buffer, **point)), buffer)
    return run_point


# --- robustness: the tables with start times spread over [0, 10 ms) ----------------------------------
JITTER_TABLES = {"vanilla": TABLE_POLICIES, "reno": TABLE_POLICIES, "sack": SACK_POLICIES}
"""The TCP flavour of Tables 1, 4 and 6 and their policy columns."""


def jitter_points(quick: bool) -> list[dict]:
    """Every cell of Tables 1, 4 and 6, each source starting at a time drawn in [0, 10 ms)."""
    seeds = list(QUICK_JITTER_SEEDS if quick else JITTER_SEEDS)
    return [point for tcp, policies in JITTER_TABLES.items()
            for point in grid(tcp=[tcp], network=["lan", "wan"], sources=[5, 15], buffer_factor=list(BUFFER_FACTORS),
                              policy=list(policies), seed=seeds)]


def jitter_run(point: dict, quick: bool) -> xr.Dataset:
    """One table cell with the starts spread (the headline's synchronized start is the paper's)."""
    point = dict(point)
    buffer = buffer_cells(point["network"], point.pop("buffer_factor"))
    run = goyal_run(buffer=buffer, quick=quick, start_jitter_s=JITTER_S, **point)
    return with_buffer_cells(run_summary(run, with_sources=False), buffer)


def same_runs_as(parent: str):
    """A target whose numbers come from the runs of ``parent`` (e.g. Table 2 from Table 1)."""
    return lambda parents: parents[parent].copy()


# --- Table 3: zero-loss buffer requirement -------------------------------------------------------
def table3_points(quick: bool) -> list[dict]:
    """Table 3's points (goyal1998 3.3.1): LAN and WAN x 5 and 15 sources x the table seeds."""
    return grid(network=["lan", "wan"], sources=[5, 15], seed=list(_seeds(quick)))


def table3_run(point: dict, quick: bool) -> xr.Dataset:
    """Infinite buffer (goyal1998 3.3.1), vanilla TCP: efficiency, fairness, maximum queue."""
    run = goyal_run(point["network"], point["sources"], None, "ubr", "vanilla", point["seed"], quick)
    return run_summary(run)


# --- Tables 8 and 9: column averages ------------------------------------------------------------------
def column_averages(parents: dict[str, xr.Dataset]) -> xr.Dataset:
    """goyal1998 Tables 8-9: per TCP flavour, network and policy, the mean over the four
    rows (sources x buffer) of Tables 1, 4 and 6, for every seed."""
    by_tcp = {"vanilla": "goyal1998.table1", "reno": "goyal1998.table4", "sack": "goyal1998.table6"}
    parts = []
    for tcp, pid in by_tcp.items():
        ds = parents[pid][["efficiency", "fairness"]].sel(policy=list(SACK_POLICIES))
        parts.append(ds.mean(dim=["sources", "buffer_factor"], skipna=True).expand_dims(tcp=[tcp]))
    out = xr.concat(parts, dim="tcp")
    for name in ("efficiency", "fairness"):
        out[name].attrs = {"units": "1", "description": f"column average of {name} over the 4 rows"}
    return out


# --- section 4.2.1: the FBA full factorial ---------------------------------------------------------------
def fba_points(quick: bool) -> list[dict]:
    """goyal1998 4.2.1: N {5, 15}, K {1, 2, 3} x the network's smaller table buffer (LAN 1000,
    WAN 12000 cells), R {0.9, 0.5, 0.1} K, Z {0.2, 0.5, 0.8}. ``buffer_factor`` is the multiple,
    so LAN and WAN share one axis with no empty cells; ``buffer_cells`` says the size."""
    return grid(network=["lan", "wan"], sources=[5, 15], buffer_factor=[1, 2, 3], r_fraction=[0.9, 0.5, 0.1],
                z=[0.2, 0.5, 0.8])


def fba_run(point: dict, quick: bool) -> xr.Dataset:
    """One cell of 4.2.1's FBA factorial: vanilla TCP, seed 0, the point's buffer, R and Z; summarized
    without per-source columns."""
    buffer = buffer_cells(point["network"], point["buffer_factor"])
    run = goyal_run(point["network"], point["sources"], buffer, "fba", "vanilla", 0, quick,
                    r_fraction=point["r_fraction"], z=point["z"])
    return with_buffer_cells(run_summary(run, with_sources=False), buffer)


# --- section 4.2: Selective Drop's Z --------------------------------------------------------------------------
def sd_z_points(quick: bool) -> list[dict]:
    """Section 4.2's Selective Drop Z sweep: LAN and WAN x Z from 2 down to 0.2 x the table seeds."""
    return grid(network=["lan", "wan"], z=[2.0, 1.0, 0.9, 0.8, 0.5, 0.2],
                seed=list(_seeds(quick)))


def sd_z_run(point: dict, quick: bool) -> xr.Dataset:
    """5 sources, R = 0.9 K, K = 1000 cells (LAN) as in 4.2; the WAN rows (K = 12000) check
    "For WAN simulations, any Z value between 0.8 and 1 produced the best results"."""
    network = point["network"]
    run = goyal_run(network, 5, NETWORKS[network]["buffers"][0], "selective_drop", "vanilla",
                    point["seed"], quick, z=point["z"])
    return run_summary(run)


# --- section 6: many sources ---------------------------------------------------------------------------------------
def many_sources_points(quick: bool) -> list[dict]:
    """WAN and satellite, 50 and 100 sources (quick: 50), buffers of about 1 and 3 RTT
    (``buffer_factor`` 1, 3: WAN 12000/36000, satellite 200000/600000 cells), on the tables' seeds."""
    return grid(network=["wan", "satellite"], sources=[50] if quick else [50, 100],
                buffer_factor=list(BUFFER_FACTORS), seed=list(QUICK_TABLE_SEEDS[:1] if quick else TABLE_SEEDS))


def many_sources_run(point: dict, quick: bool) -> xr.Dataset:
    """SACK TCP + Selective Drop, buffers of 1 and 3 RTT (goyal1998 section 6)."""
    buffer = buffer_cells(point["network"], point["buffer_factor"])
    run = goyal_run(point["network"], point["sources"], buffer, "selective_drop", "sack", point["seed"], quick)
    return with_buffer_cells(run_summary(run, with_sources=False), buffer)


# --- Figs. 2, 5, 6, 7: congestion window traces ----------------------------------------------------------
def fig2_run(point: dict, quick: bool) -> xr.Dataset:
    """Vanilla TCP, 5-source LAN, 1000-cell UBR buffer: source 0's CWND with the flat
    stretches of the 100 ms timer."""
    trace = m.TraceConfig(connections=(0,))
    run = goyal_run("lan", 5, 1000, "ubr", "vanilla", 0, quick, duration_s=1.0 if quick else 3.0, trace=trace)
    return cwnd_trace(simulate(run))


SCRIPTED_LOSS_START = 1500
"""First lost segment of the scripted-loss figures: by then the connection, which starts
with ssthresh = 64 KB, has been in congestion avoidance for about 10 RTTs."""


def scripted_loss_run(tcp: str, lost: tuple[int, ...], duration_s: float) -> m.Run:
    """One WAN connection (30 ms propagation RTT, infinite buffers) losing ``lost``."""
    network = n_source_network(1, NETWORKS["wan"]["delay_s"], m.PortConfig(None))
    config = goyal_tcp(tcp, 512, NETWORKS["wan"]["rcv_wnd"], initial_ssthresh=65536)
    connection = m.Connection("S1", "D1", config, 0.0, lost)
    return m.Run(network, (connection,), duration_s, trace=m.TraceConfig(connections=(0,)))


def loss_figure(tcp: str, n_lost: int):
    """The ``run_point`` function of Figs. 5-7: one WAN connection of ``tcp`` losing ``n_lost`` consecutive
    segments from :data:`SCRIPTED_LOSS_START`; its cwnd trace, timeouts and fast retransmits."""
    def run_point(point: dict, quick: bool) -> xr.Dataset:
        lost = tuple(range(SCRIPTED_LOSS_START, SCRIPTED_LOSS_START + n_lost))
        ds = simulate(scripted_loss_run(tcp, lost, 3.0))
        out = cwnd_trace(ds)
        out["timeouts"] = ds.timeouts.sel(source=0)
        out["fast_retransmits"] = ds.fast_retransmits.sel(source=0)
        out["lost_segments"] = xr.DataArray(n_lost, attrs={"units": "1"})
        return out
    return run_point


# --- section 5.4.2: the SACK recovery bound ------------------------------------------------------------------
SACK_BOUND_WINDOW = 128
"""W, the segments in flight when the block is lost, and CWND at the third duplicate ACK."""
SACK_BOUND_FIRST_LOST = 127
"""First lost segment. The connection starts with ``initial_ssthresh`` = ``rcv_wnd`` =
65536 bytes = 128 segments of 512 bytes (window scale 1). The ACK for segment 126 ends
slow start with CWND = SSTHRESH = 65536 bytes and lets the sender fill the window: at
that instant segments 127 ... 254 are in flight, W = 128 = CWND = the receiver window,
and the window-limited sender sends nothing more until the lost block is ACKed. Losing
the first ``lost`` of these segments gives ``128 - lost`` duplicate ACKs, and CWND is
still exactly 128 segments at the third of them, as 5.4.2 assumes (later in congestion
avoidance CWND would exceed the segments in flight, which the receiver window caps)."""
SACK_BOUND_DURATION_S = 1.0
"""Slow start takes 0.21 s; the slowest recovery (lost = 65, 8 RTTs) ends by 0.5 s; a
timeout (RTO >= 0.2 s) shows well within 1 s."""


def sack_bound(n: float) -> float:
    """goyal1998 5.4.2 / goyal1997 slides: RTTs to recover from losing CWND/n,
    ``ceil(log2(n / (n - 2)))`` for n > 2 (at least 1); infinite for n <= 2."""
    if n <= 2:
        return math.inf
    return max(1.0, math.ceil(math.log2(n / (n - 2)) - 1e-12))


def sack_bound_rtts(lost: int, window: int = SACK_BOUND_WINDOW) -> float:
    """The bound on the RTTs to retransmit ``lost`` segments out of ``window`` in flight.

    Below half the window, 5.4.2's ``ceil(log2(n/(n-2)))`` with ``n = window / lost``.
    From half the window on, 5.4.2 gives no formula: only the fast retransmission goes
    out in the first RTT, then "PIPE will double every RTT, and SACK will recover no
    slower than slow start" with no timeout. The bound stated here for that regime is
    slow start from one segment: ``1 + ceil(log2(lost))`` RTTs (1 + 2 + 4 + ... + 2^(k-1)
    = 2^k - 1 >= lost retransmissions in k RTTs needs k = ceil(log2(lost + 1)) <= this).
    """
    if 2 * lost < window:
        return sack_bound(window / lost)
    return 1.0 + math.ceil(math.log2(lost) - 1e-12)


def pipe_stall_from(window: int = SACK_BOUND_WINDOW, pipe_start: str = "cwnd-3") -> int:
    """The smallest block of ``lost`` segments (of ``window`` in flight, CWND = ``window`` at the third
    duplicate ACK) after which 5.4.1's PIPE rules send nothing but the fast retransmission and then stall
    until the timeout.

    PIPE starts at ``window - 3`` (5.4.2) or ``window + 1`` (5.4.1, with the fast retransmission), falls by
    one for each of the ``window - lost - 3`` further duplicate ACKs and by two at the retransmission's
    partial ACK; CWND is ``window / 2``. A segment goes out only while PIPE < CWND, so when PIPE is still
    at or above CWND after the partial ACK, nothing more is sent and no ACK returns: 5.4.2's "PIPE will
    double every RTT" needs a PIPE that has fallen below CWND, which its own start does not give."""
    start = window - 3 if pipe_start == "cwnd-3" else window + 1
    for lost in range(1, window):
        after_partial_ack = start - (window - lost - 3) - 2
        if after_partial_ack >= window // 2:
            return lost
    return window


def sack_bound_points(quick: bool) -> list[dict]:
    """Every lost block of 1 ... W - 1 segments; quick: every 8th, plus 1 and W - 1."""
    if quick:
        lost = [1, *range(8, SACK_BOUND_WINDOW, 8), SACK_BOUND_WINDOW - 1]
    else:
        lost = list(range(1, SACK_BOUND_WINDOW))
    return grid(lost_segments=lost)


def sack_bound_scenario(lost: int, pipe_start: str = "cwnd-3") -> m.Run:
    """One window-limited WAN SACK source (30 ms propagation RTT, infinite buffers) losing
    the first transmissions of segments ``SACK_BOUND_FIRST_LOST ... + lost - 1``, W = 128
    segments in flight (see :data:`SACK_BOUND_FIRST_LOST`). PIPE starts as 5.4.2's analysis
    of the bound says ("sets PIPE to CWND - 3"), unless ``pipe_start`` says otherwise."""
    network = n_source_network(1, NETWORKS["wan"]["delay_s"], m.PortConfig(None))
    window = SACK_BOUND_WINDOW * 512
    config = goyal_tcp("sack", 512, window, initial_ssthresh=window, sack_pipe_start=pipe_start)
    lost_segments = tuple(range(SACK_BOUND_FIRST_LOST, SACK_BOUND_FIRST_LOST + lost))
    return m.Run(network, (m.Connection("S1", "D1", config, 0.0, lost_segments),), SACK_BOUND_DURATION_S,
                 trace=m.TraceConfig(connections=(0,)))


def sack_bound_run(point: dict, quick: bool) -> xr.Dataset:
    """Lose ``lost_segments`` consecutive first transmissions out of W = 128 in flight and
    count the RTTs from the fast retransmit until the last of them is retransmitted (what
    5.4.2 bounds) and until the ACK that covers the whole block."""
    lost = int(point["lost_segments"])
    ds = simulate(sack_bound_scenario(lost))
    retransmit_rtts, ack_rtts, rtt = _recovery_rtts(ds, SACK_BOUND_FIRST_LOST, lost, 512)
    return xr.Dataset({
        "lost_fraction": xr.DataArray(lost / SACK_BOUND_WINDOW, attrs={"units": "1"}),
        "retransmit_rtts": xr.DataArray(retransmit_rtts, attrs={
            "units": "RTT", "description": "RTTs from the fast retransmit until the last lost segment is "
                                           "retransmitted (what the bound of 5.4.2 counts); NaN after a timeout"}),
        "ack_rtts": xr.DataArray(ack_rtts, attrs={
            "units": "RTT", "description": "RTTs from the fast retransmit until the ACK that covers the lost "
                                           "block; NaN after a timeout"}),
        "rtt_s": xr.DataArray(rtt, attrs={"units": "s", "description": "RTT of the first retransmission"}),
        "bound_rtts": xr.DataArray(sack_bound_rtts(lost), attrs={
            "units": "RTT", "description": "lost < W/2: ceil(log2(n/(n-2))), n = W/lost (goyal1998 5.4.2); "
                                           "lost >= W/2: 1 + ceil(log2(lost)), slow start from one segment "
                                           "(5.4.2: 'no slower than slow start'; atmtcp's statement)"}),
        "timeouts": ds.timeouts.sel(source=0, drop=True),
        "fast_retransmits": ds.fast_retransmits.sel(source=0, drop=True),
        "retransmissions": ds.retransmissions.sel(source=0, drop=True),
    }, attrs={"window_segments": SACK_BOUND_WINDOW})


def _recovery_rtts(ds: xr.Dataset, start: int, count: int, mss: int) -> tuple[float, float, float]:
    """(retransmission RTTs, ACK RTTs, RTT) of the recovery from losing ``count`` segments."""
    nan = float("nan")
    kind = ds.trace_kind.values
    time = ds.trace_time.values
    value = ds.trace_value.values
    fr = time[kind == "fast_retransmit"]
    if fr.size == 0 or np.any(kind == "timeout"):
        return nan, nan, nan
    t_fr = fr[0]
    later = time >= t_fr
    first_ack = time[later & (kind == "ack_received") & (value > start * mss)]
    done = time[later & (kind == "ack_received") & (value >= (start + count) * mss)]
    resent = time[later & (kind == "seq_sent") & (value >= start * mss) & (value < (start + count) * mss)]
    if first_ack.size == 0 or done.size == 0 or resent.size == 0:
        return nan, nan, nan
    rtt = first_ack[0] - t_fr
    # a retransmission sent at t_fr + k*rtt (k >= 0) belongs to RTT number k + 1
    retransmit_rtts = float(np.floor((resent.max() - t_fr) / rtt + 1e-9) + 1)
    return retransmit_rtts, float(np.ceil((done[0] - t_fr) / rtt - 1e-9)), float(rtt)


# --- issue 6: phase lock and the tail-drop baseline ---------------------------------------------------
SENSITIVITY_POLICIES = ("ubr", "epd")
SENSITIVITY_SEEDS = (1, 2, 3, 4, 5)
"""Seeds of runs with the uniform start jitter in [0, 10 ms): phase lock is a property of the
cell streams, not of one lucky start, so the sensitivity study averages over starts."""


QUICK_ASSUMPTIONS = ("deterministic", HEADLINE_CONTENTION, "randomized_tail")


def sensitivity_points(quick: bool) -> list[dict]:
    """The UBR and EPD columns of Tables 1, 2, 4, 5 under each cell-contention assumption
    (quick: three assumptions, one seed)."""
    return grid(assumption=list(QUICK_ASSUMPTIONS if quick else CELL_ASSUMPTIONS), tcp=["vanilla", "reno"],
                network=["lan", "wan"], sources=[5, 15], buffer_factor=list(BUFFER_FACTORS),
                policy=list(SENSITIVITY_POLICIES), seed=list(SENSITIVITY_SEEDS[:1] if quick else SENSITIVITY_SEEDS))


def sensitivity_run(point: dict, quick: bool) -> xr.Dataset:
    """One table cell under one assumption, with the per-source drop counts that show the
    mechanism: a phase-locked lucky source is never dropped although its cells, too, find
    the buffer full."""
    network = point["network"]
    buffer = buffer_cells(network, point["buffer_factor"])
    run = goyal_run(network, point["sources"], buffer, point["policy"], point["tcp"], point["seed"], quick,
                    assumption=point["assumption"], start_jitter_s=JITTER_S)
    ds = simulate(run)
    out = summarize(ds)
    out["cells_dropped_by_source"] = ds.cells_dropped_by_source
    out["full_buffer_arrivals"] = ds.full_buffer_arrivals
    out["capacity_bps"] = ds.capacity_bps
    return with_buffer_cells(out, buffer)


def _single(name: str):
    return lambda quick: [{"case": name}]


EXPERIMENTS = [
    Experiment("goyal1998.table1", "Vanilla TCP over UBR, EPD, Selective Drop, FBA: efficiency",
               table_points(TABLE_POLICIES), table_runner("vanilla")),
    Experiment("goyal1998.table2", "Vanilla TCP over UBR, EPD, Selective Drop, FBA: fairness",
               parents=("goyal1998.table1",), derive=same_runs_as("goyal1998.table1")),
    Experiment("goyal1998.table3", "Buffer requirement for zero loss (infinite buffer)", table3_points, table3_run),
    Experiment("goyal1998.table4", "Reno TCP over UBR+: efficiency", table_points(TABLE_POLICIES),
               table_runner("reno")),
    Experiment("goyal1998.table5", "Reno TCP over UBR+: fairness",
               parents=("goyal1998.table4",), derive=same_runs_as("goyal1998.table4")),
    Experiment("goyal1998.table6", "SACK TCP over UBR+: efficiency", table_points(SACK_POLICIES),
               table_runner("sack"),
               notes="SACK TCP with the New Reno change and the PIPE algorithm of section 5.4.1 "
                     "(PIPE = CWND at the third duplicate ACK, plus the fast retransmission)"),
    Experiment("goyal1998.table7", "SACK TCP over UBR+: fairness",
               parents=("goyal1998.table6",), derive=same_runs_as("goyal1998.table6")),
    Experiment("goyal1998.table8", "Comparative efficiencies (column averages)",
               parents=("goyal1998.table1", "goyal1998.table4", "goyal1998.table6"), derive=column_averages),
    Experiment("goyal1998.table9", "Comparative fairness (column averages)",
               parents=("goyal1998.table1", "goyal1998.table4", "goyal1998.table6"), derive=column_averages),
    Experiment("goyal1998.fba_factorial", "FBA full factorial of section 4.2.1 (vanilla TCP)", fba_points, fba_run),
    Experiment("goyal1998.sd_z_sweep", "Selective Drop: effect of Z (section 4.2, vanilla TCP)",
               sd_z_points, sd_z_run),
    Experiment("goyal1998.many_sources", "SACK + Selective Drop with 50 and 100 sources (section 6)",
               many_sources_points, many_sources_run),
    Experiment("goyal1998.fig2", "Vanilla TCP: CWND vs time", _single("lan_5_sources_ubr_1000"), fig2_run),
    Experiment("goyal1998.fig5", "Reno: three consecutive losses", _single("wan_1_source_3_losses"),
               loss_figure("reno", 3)),
    Experiment("goyal1998.fig6", "New Reno: one retransmission per RTT", _single("wan_1_source_3_losses"),
               loss_figure("newreno", 3)),
    Experiment("goyal1998.fig7", "SACK recovery from several losses", _single("wan_1_source_6_losses"),
               loss_figure("sack", 6)),
    Experiment("goyal1998.sack_bound", "SACK recovery RTTs vs the bound of section 5.4.2",
               sack_bound_points, sack_bound_run),
    Experiment("goyal1998.start_jitter", "Tables 1, 4 and 6 with the sources' starts spread over [0, 10 ms)",
               jitter_points, jitter_run,
               notes="robustness study: the tables' headline starts every source at t = 0 (3.1)"),
    Experiment("goyal1998.ubr_sensitivity",
               "UBR and EPD columns of Tables 1, 2, 4, 5 under each cell-contention assumption",
               sensitivity_points, sensitivity_run,
               notes="assumptions: atmtcp.contention.CELL_ASSUMPTIONS"),
]
EXPERIMENTS = [replace(e, parameters=goyal_parameters) for e in EXPERIMENTS]
