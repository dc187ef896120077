"""goyal1998: studies of the disagreements that stay after the tables' headline runs (issue 22).

The tables keep the paper's stated mechanisms. These targets show what the results depend on:

- ``goyal1998.sack_pipe_study``: Tables 6-7 under the other PIPE start the paper gives, 5.4.2's
  "sets PIPE to CWND - 3" (the tables use 5.4.1's "PIPE is set to the value of CWND",
  :data:`atmtcp.papers.goyal1998.scenario.SACK_PIPE_START`), on the same seeds.
- ``goyal1998.sack_lan_mechanism``: why SACK is not below Reno in the LAN, as 5.4.3 says it can be
  ("retransmitted packets are lost"). For every transmission in the first :data:`TRACE_S` of a LAN
  run: was it a first transmission or a retransmission (after a fast retransmit, i.e. in recovery, or
  after a timeout), what queue did it meet at the bottleneck, and was it dropped there
  (:func:`transmission_fates`).
- ``goyal1998.fba_study``: Tables 1-2's LAN rows (vanilla TCP, all four policies) under the readings
  of what limits FBA in the 1000-cell LAN: ``Na`` counting every VC routed through the port instead of
  those with a cell in the buffer (4.2: "A VC is said to be active if it has at least one cell in the
  buffer"), and each host's 100 ms timer ticking at its own phase instead of all together.
- ``goyal1998.tick_phase_study``: every cell of Tables 1, 2, 4 and 5 (vanilla and Reno) with each host's
  timer at its own phase (:func:`tick_phase_run`; the rule's decision is written there).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import xarray as xr

from ... import model as m
from ...experiment import Experiment, grid
from ...simulate import simulate
from ...variations import with_switch_port, with_tick_phases
from .experiments import QUICK_TABLE_SEEDS, SACK_POLICIES, TABLE_POLICIES, TABLE_SEEDS, table_points
from .scenario import BOTTLENECK, BUFFER_FACTORS, buffer_cells, goyal_parameters, goyal_run
from .summary import run_summary, summarize, with_buffer_cells

# --- SACK's PIPE start ------------------------------------------------------------------------------
OTHER_PIPE_START = "cwnd-3"
"""5.4.2's start of PIPE, the study's reading (the tables: 5.4.1's)."""


def pipe_study_run(point: dict, quick: bool) -> xr.Dataset:
    """One cell of Table 6 with SACK's PIPE starting at CWND - 3 (5.4.2)."""
    point = dict(point)
    buffer = buffer_cells(point["network"], point.pop("buffer_factor"))
    run = goyal_run(tcp="sack", quick=quick, buffer=buffer, tcp_options={"sack_pipe_start": OTHER_PIPE_START},
                    **point)
    return with_buffer_cells(run_summary(run, with_sources=False), buffer)


# --- SACK in the LAN: the fate of each transmission ----------------------------------------------------
TRACE_S = 2.0
"""The traced start of each run: every transmission, ACK, drop and the bottleneck queue every
:data:`QUEUE_SAMPLE_S` (the summary numbers cover the whole run)."""
QUEUE_SAMPLE_S = 1e-5
MECHANISM_READINGS = {
    "SACK (5.4.1)": ("sack", {}),
    "SACK (5.4.2)": ("sack", {"sack_pipe_start": OTHER_PIPE_START}),
    "Reno": ("reno", {}),
}
"""The TCPs compared: SACK as the tables run it, SACK with 5.4.2's PIPE start, and Reno (Table 4)."""
MECHANISM_POLICIES = ("epd", "selective_drop")
MECHANISM_SEEDS, QUICK_MECHANISM_SEEDS = (0, 1, 2, 3, 4), (0,)
FATES = ("first", "after_fast_retransmit", "after_timeout")
"""A transmission is a segment's first, or a retransmission whose connection's last loss event before
it was a fast retransmit (the connection is in recovery, or was) or a timeout."""
FATE_LABELS = {"first": "first transmissions", "after_fast_retransmit": "retransmissions in recovery",
               "after_timeout": "retransmissions after a timeout"}


def transmission_fates(ds: xr.Dataset, port: str, threshold: int) -> dict[str, float]:
    """Per kind of transmission (:data:`FATES`): how many were sent, how many were dropped at ``port``
    (a transmission is dropped if any of its cells is), and the share that arrived with the queue at or
    above ``threshold`` cells (the queue at the last sample before the send).

    Needs every connection traced and ``port`` among the traced ports. A segment sent earlier (same
    connection and sequence number) makes a retransmission; a dropped cell belongs to the last
    transmission of its segment sent at or before the drop."""
    kind = ds.trace_kind.values
    src_all, t_all, v_all = ds.trace_source.values, ds.trace_time.values, ds.trace_value.values
    sent = kind == "seq_sent"
    events = (kind == "fast_retransmit") | (kind == "timeout")
    queue = ds.queue_cells.sel(traced_port=port).values
    sample_t = ds.sample_time.values
    at_port = (ds.drop_port.values == port) & (ds.drop_is_ack.values == 0)
    d_src, d_t, d_seq = ds.drop_source.values[at_port], ds.drop_time.values[at_port], ds.drop_seq.values[at_port]
    counts = {f: np.zeros(3) for f in FATES}   # sent, dropped, met the threshold
    for c in np.unique(src_all[sent]):
        mine = sent & (src_all == c)
        t, seq = t_all[mine], v_all[mine]
        fate = _fates(t, seq, t_all[events & (src_all == c)], kind[events & (src_all == c)])
        met = queue[np.clip(np.searchsorted(sample_t, t, "right") - 1, 0, len(queue) - 1)] >= threshold
        dropped = _dropped(t, seq, d_t[d_src == c], d_seq[d_src == c])
        for i, f in enumerate(FATES):
            sel = fate == i
            counts[f] += (sel.sum(), (sel & dropped).sum(), (sel & met).sum())
    out = {}
    for f, (n, lost, high) in counts.items():
        out[f"{f}_sent"] = float(n)
        out[f"{f}_dropped"] = float(lost)
        out[f"{f}_at_threshold"] = high / n if n else float("nan")
    return out


def _fates(t, seq, event_t, event_kind) -> np.ndarray:
    """Index into :data:`FATES` of each transmission (time ``t``, sequence ``seq``, in send order)."""
    _, first = np.unique(seq, return_index=True)
    fate = np.ones(len(seq), np.int64)
    last = np.searchsorted(event_t, t, "right") - 1
    after_timeout = (last >= 0) & (event_kind[np.maximum(last, 0)] == "timeout")
    fate[after_timeout] = 2
    fate[first] = 0
    return fate


def _dropped(t, seq, drop_t, drop_seq) -> np.ndarray:
    """Which transmissions lost a cell: each drop charged to the last send of its segment before it."""
    out = np.zeros(len(seq), bool)
    order = np.lexsort((t, seq))
    s_seq, s_t = seq[order], t[order]
    lo = np.searchsorted(s_seq, drop_seq, "left")
    hi = np.searchsorted(s_seq, drop_seq, "right")
    for a, b, when in zip(lo, hi, drop_t):
        k = a + np.searchsorted(s_t[a:b], when, "right") - 1
        if a <= k < b:
            out[order[k]] = True
    return out


def mechanism_points(quick: bool) -> list[dict]:
    """``goyal1998.sack_lan_mechanism``'s points: LAN cells (sources x buffer x policy) x Reno and SACK x
    seeds (quick: 5 sources, 1000 cells, EPD)."""
    if quick:
        return grid(sources=[5], buffer_factor=[1], policy=["epd"], reading=list(MECHANISM_READINGS),
                    seed=list(QUICK_MECHANISM_SEEDS))
    return grid(sources=[5, 15], buffer_factor=list(BUFFER_FACTORS), policy=list(MECHANISM_POLICIES),
                reading=list(MECHANISM_READINGS), seed=list(MECHANISM_SEEDS))


def mechanism_run(point: dict, quick: bool) -> xr.Dataset:
    """One LAN cell of Tables 4/6, traced for its first :data:`TRACE_S`: the summary and
    :func:`transmission_fates` against the port's threshold R (EPD's, or 0.9 K)."""
    buffer = buffer_cells("lan", point["buffer_factor"])
    tcp, options = MECHANISM_READINGS[point["reading"]]
    sources = point["sources"]
    trace = m.TraceConfig(connections=tuple(range(sources)), ports=(BOTTLENECK,), stop_s=TRACE_S,
                          sample_interval_s=QUEUE_SAMPLE_S, max_records=4_000_000)
    run = goyal_run("lan", sources, buffer, point["policy"], tcp, point["seed"], quick, trace=trace,
                    tcp_options=options)
    ds = simulate(run)
    threshold = run.network.switch_port.policy.threshold
    out = summarize(ds, with_sources=False)
    for name, value in transmission_fates(ds, BOTTLENECK, threshold).items():
        out[name] = xr.DataArray(value, attrs={"units": "1", "description": _describe(name, threshold)})
    out["threshold_cells"] = xr.DataArray(threshold, attrs={"units": "cell", "description": "R of the policy"})
    return with_buffer_cells(out, buffer)


def _describe(name: str, threshold: int) -> str:
    fate, what = next((f, name[len(f) + 1:]) for f in FATES if name.startswith(f))
    kind = FATE_LABELS[fate]
    return {"sent": f"{kind} sent in the first {TRACE_S:g} s",
            "dropped": f"{kind} that lost a cell at the bottleneck in the first {TRACE_S:g} s",
            "at_threshold": f"share of {kind} that met a queue of at least R cells"}[what]


# --- FBA in the small LAN buffer ----------------------------------------------------------------------
FBA_READINGS = {
    "as written": {},
    "Na = VCs routed": {"active_vcs": "routed"},
    "timer phase per host": {"tick_phases": True},
}
"""4.2's rule as the tables run it, and the two readings of what limits FBA in the 1000-cell LAN."""
QUICK_FBA_READINGS = ("Na = VCs routed", "timer phase per host")
TICK_PHASE_STREAM = 1
"""The second word of the seed sequence of the hosts' timer phases (:func:`atmtcp.variations.with_tick_phases`)."""
NA_POLICIES = ("selective_drop", "fba")
"""The policies that read ``Na`` (4.2); "Na = VCs routed" leaves UBR and EPD as they are and is not run for them."""


def fba_study_points(quick: bool) -> list[dict]:
    """Tables 1-2's LAN rows, every policy column, each reading (the study's "as written" is Table 1's
    own runs, taken from ``goyal1998.table1`` in the notebook)."""
    readings = QUICK_FBA_READINGS if quick else [r for r in FBA_READINGS if r != "as written"]
    points = grid(reading=list(readings), sources=[5] if quick else [5, 15], buffer_factor=list(BUFFER_FACTORS),
                  policy=list(TABLE_POLICIES), seed=list(QUICK_TABLE_SEEDS[:1] if quick else TABLE_SEEDS))
    return [p for p in points if "active_vcs" not in FBA_READINGS[p["reading"]] or p["policy"] in NA_POLICIES]


def fba_study_run(point: dict, quick: bool) -> xr.Dataset:
    """One LAN cell of Tables 1-2 (vanilla TCP) under the point's reading of :data:`FBA_READINGS` (``Na`` as
    the VCs routed, or each host's own timer phase); summarized without per-source columns."""
    buffer = buffer_cells("lan", point["buffer_factor"])
    reading = FBA_READINGS[point["reading"]]
    run = goyal_run("lan", point["sources"], buffer, point["policy"], "vanilla", point["seed"], quick)
    if reading.get("active_vcs"):
        run = with_active_vcs(run, reading["active_vcs"])
    if reading.get("tick_phases"):
        run = with_tick_phases(run, point["seed"], TICK_PHASE_STREAM)
    return with_buffer_cells(run_summary(run, with_sources=False), buffer)


def with_active_vcs(run: m.Run, active_vcs: str) -> m.Run:
    """``run`` with its switch ports counting active VCs as ``active_vcs`` says."""
    port = run.network.switch_port
    return with_switch_port(run, replace(port, policy=replace(port.policy, active_vcs=active_vcs)))


# --- the hosts' timer phase: Tables 1, 2, 4 and 5 -------------------------------------------------------
TICK_PHASE_TCPS = {"vanilla": ("goyal1998.table1", "goyal1998.table2"),
                   "reno": ("goyal1998.table4", "goyal1998.table5")}
"""The TCPs of the study and the tables (efficiency, fairness) whose cells and runs it takes as its "in phase"."""
QUICK_TICK_PHASE = {"tcp": ["reno"], "network": ["lan"], "sources": [5], "buffer_factor": [1],
                    "policy": ["ubr", "epd"]}
"""The quick grid (with :data:`QUICK_TABLE_SEEDS`): two cells of Table 4's LAN, for the tests."""


def tick_phase_points(quick: bool) -> list[dict]:
    """Every cell of Tables 1-2 (vanilla) and 4-5 (Reno), 10 seeds as the tables; quick: :data:`QUICK_TICK_PHASE`.
    The hosts in phase are the tables' own runs (``goyal1998.table1``, ``.table4``), taken in the notebook."""
    if quick:
        return grid(**QUICK_TICK_PHASE, seed=list(QUICK_TABLE_SEEDS))
    return grid(tcp=list(TICK_PHASE_TCPS), network=["lan", "wan"], sources=[5, 15], buffer_factor=list(BUFFER_FACTORS),
                policy=list(TABLE_POLICIES), seed=list(TABLE_SEEDS))


def tick_phase_run(point: dict, quick: bool) -> xr.Dataset:
    """One cell of Tables 1-2 or 4-5 with each host's 100 ms timer ticking at its own phase, uniform within a
    tick, drawn from the run's seed (:func:`atmtcp.variations.with_tick_phases`, stream
    :data:`TICK_PHASE_STREAM`: the LAN vanilla runs are ``goyal1998.fba_study``'s "timer phase per host").

    **What the rule decides** (:mod:`atmtcp.tcp_settings`; written before the study's numbers were seen).
    The headline keeps every host's timer in phase (``TcpConfig.tick_phase_s = 0``); this study is the
    rule's third step, the other plausible reading.

    1. *The paper's sentences.* None names the phase of a host's timer. About its timers goyal1998 says:
       3.1, "TCP timer granularity is set to 100 ms" (which decides ``granularity_s``, over 4.4BSD's
       500 ms); 2, "The TCP source estimates the RTT of the connection by measuring the time (number of
       ticks of the timer) between the sending of a segment and the receipt of the ACK" (a tick timer);
       3.1, "All TCP sources start sending at the same time ... This increases the probability of
       synchronization among connections, and represents a worst case scenario" (the starts, not the
       clocks); its parameters are those of [12] (Dwight, ATM Forum 95-0077r1), not available here.
       One sentence states how the simulated TCPs behaved, 3.3 on Tables 1-2: "TCP connections are
       synchronized when their sources timeout and retransmit at the same time. ... All these connections
       wait for a timeout and stop sending data into the network. The connections that were not dropped
       send their next window and keep filling up the buffer. All other connections timeout and retransmit
       at the same time. This results in their segments being dropped again". Sources that lost in one
       overflow have the same RTO in ticks; on clocks in phase their timeouts fire on the same tick and
       their retransmissions meet the same full buffer, as the sentence says. On a phase per host they fire
       up to one tick (100 ms) apart, about 37 drains of the 1000-cell LAN buffer and three WAN round
       trips: the first source back has refilled its window before the next one times out, so they are not
       retransmitted "at the same time" on the buffer's time scale. The behaviour sentence decides (rule
       1, BEHAVIOUR): hosts in phase, for every table, since one simulator ran them all.
    2. *4.4BSD-Lite*, the reference of the era, would decide only a setting the paper leaves unsaid. Its
       ``tcp_slowtimo`` runs from ``pfslowtimo`` (``kern/uipc_domain.c``), which ``domaininit`` starts at
       boot and which reschedules itself with ``timeout(pfslowtimo, (void *)0, hz/2)`` on the host's own
       clock: every 500 ms, each host at a phase set by its own boot, unrelated to another host's. Without
       3.3 the rule would give a phase per host (uniform within the tick), at the paper's 100 ms.
    3. The reading 4.4BSD-Lite gives, a phase per host, is this study.

    The weak point of the decision: "at the same time" is the paper's explanation of a result, not a
    statement of its simulator, and 100 ms is short against a 10 s run; it is a behaviour the headline
    runs can be checked against (the spread of the timeouts that follow one overflow), not yet measured.
    """
    point = dict(point)
    buffer = buffer_cells(point["network"], point.pop("buffer_factor"))
    run = goyal_run(quick=quick, buffer=buffer, **point)
    run = with_tick_phases(run, point["seed"], TICK_PHASE_STREAM)
    return with_buffer_cells(run_summary(run, with_sources=False), buffer)


EXPERIMENTS = [
    Experiment("goyal1998.sack_pipe_study", "SACK with 5.4.2's PIPE start (CWND - 3): Tables 6-7",
               table_points(SACK_POLICIES), pipe_study_run),
    Experiment("goyal1998.sack_lan_mechanism", "SACK and Reno in the LAN: the fate of each transmission",
               mechanism_points, mechanism_run),
    Experiment("goyal1998.fba_study", "FBA in the LAN: active VCs and the hosts' timer phase (vanilla TCP)",
               fba_study_points, fba_study_run),
    Experiment("goyal1998.tick_phase_study", "Tables 1, 2, 4 and 5 with each host's timer at its own phase",
               tick_phase_points, tick_phase_run),
]
EXPERIMENTS = [replace(e, parameters=goyal_parameters) for e in EXPERIMENTS]
TARGETS = [e.id for e in EXPERIMENTS]
"""Each study is a table and a figure of the goyal1998 notebook (issue 22)."""
