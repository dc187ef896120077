"""``simulate(run) -> xarray.Dataset``: the public wrapper around the kernel (stumpy style:
validate, allocate, call the kernel, label the result).

xarray is imported only to label a result (:func:`to_dataset`): ``atmtcp run`` prints its
table from :func:`counters` and so never pays for importing xarray and pandas.
"""
from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    import xarray as xr

from . import model as m
from . import run_cache
from .compile import NS, Compiled, Growth, compile_run
from .grow import make_headroom
from .kernel import layout as L
from .kernel.entry import entry_kind, kernel_entry
from .kernel.sources import CACHE_DIR
from .metrics import capacity_bps, efficiency, fairness_index
from .supervise import Estimate, call_kernel

MAX_GROWTH = 4 ** 6


class KernelError(RuntimeError):
    """The kernel stopped with a ``*_FULL`` status (or grew past :data:`MAX_GROWTH`)."""


def run_kernel(run: m.Run, growth: Growth | None = None, entry=None) -> Compiled:
    """Compile and run ``run``; when the kernel stops because a resource runs low, grow that
    resource in the paused state and let the kernel continue.

    The kernel stops between two events, never inside one, when less than one event's worst
    use of a growable resource is left (:class:`atmtcp.compile.Margins`): the cell or packet
    pool, the event heap, one infinite buffer's ring or one slotted port's pending list.
    :func:`atmtcp.grow.make_headroom` grows only what is low (x4), from the current tables,
    and the run goes on from where it stopped: no rerun from t = 0, so a run that needs big
    tables pays for them once, not for every smaller attempt too. A result never depends on
    the sizes (events are keyed by (time, sequence), never by a record's index). ``growth``
    scales the initial sizes (tests start with tiny ones); a ``*_FULL`` status (a margin too
    small: a bug) raises :class:`KernelError`, as does growth beyond :data:`MAX_GROWTH`.
    ``entry`` runs the kernel (default :func:`atmtcp.kernel.entry.kernel_entry`: the
    ahead-of-time module where it is built, else numba's JIT).
    """
    if entry is None:
        entry = kernel_entry()
        _say_if_compiling()
    compiled = compile_run(run, growth)
    estimate = Estimate(compiled.state.g)
    while True:
        status = call_with_cache_check(entry, compiled, estimate)
        if status == L.OK:
            return compiled
        full = status & L.FULL_MASK
        if full or compiled.growth.largest() >= MAX_GROWTH:
            arg = int(compiled.state.g[L.G_STATUS_ARG])
            reason = L.STATUS_NAMES[full] if full else ", ".join(n for b, n in L.LOW_NAMES.items() if status & b)
            raise KernelError(f"kernel stopped: {reason} (argument {arg}, {compiled.growth})")
        make_headroom(compiled)  # reads the *_LOW bits; may find a ring or the heap roomy again
        compiled.state.g[L.G_STATUS] = L.OK


class KernelCacheError(RuntimeError):
    """numba's on-disk cache of the kernel could not be read (a damaged file in it)."""


def call_with_cache_check(entry, compiled, estimate) -> int:
    """:func:`atmtcp.supervise.call_kernel`; an error numba raises while reading its cache of the
    kernel becomes a :class:`KernelCacheError` that names the folder and what to run."""
    try:
        return call_kernel(entry, compiled, estimate)
    except Exception as error:
        if not from_numba_cache(error):
            raise
        raise KernelCacheError(f"numba's cache of the kernel {CACHE_DIR} is damaged ({type(error).__name__}: "
                               f"{error}); run `atmtcp warm`, which removes it and compiles the kernel again "
                               "(a few minutes)") from error


def from_numba_cache(error: BaseException) -> bool:
    """Whether ``error`` was raised while numba read its on-disk cache (its caching module on the stack)."""
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename.endswith(os.path.join("numba", "core", "caching.py")):
            return True
        trace = trace.tb_next
    return False


COMPILE_NOTICE = ("atmtcp: compiling the simulation kernel for this machine, once (about a minute on a 2-core "
                  "machine, two on a slower one, and up to 0.6 GB of memory); `atmtcp warm` does it ahead of time and also builds a "
                  "module that starts without numba.")
"""What a process about to compile the kernel says on stderr, once: a library user's first
:func:`simulate` after installing would otherwise wait minutes without a word."""
_said = False


def compile_notice(kind: str, cache_dir: Path = CACHE_DIR) -> str | None:
    """:data:`COMPILE_NOTICE` where the kernel of ``kind`` (``"aot"`` or ``"jit"``) is about to be
    compiled: the JIT, with numba's cache of this kernel empty or switched off (``ATMTCP_NO_CACHE``)."""
    if kind != "jit":
        return None
    if os.environ.get("ATMTCP_NO_CACHE") is None and any(Path(cache_dir).rglob("*.nbi")):
        return None
    return COMPILE_NOTICE


def _say_if_compiling() -> None:
    global _said
    if not _said and (notice := compile_notice(entry_kind())) is not None:
        print(notice, file=sys.stderr, flush=True)
    _said = True


def warm_kernel() -> None:
    """Compile the kernel, or load it (from the ahead-of-time module or numba's cache), with a run
    of a few cells, so that processes forked afterwards (``atmtcp experiment --jobs N``) do not
    each compile it."""
    run_kernel(warm_up_run())


def warm_up_run() -> m.Run:
    """A run of a few cells: 2 sources, EPD, 100 cells, 0.1 ms."""
    from .topologies import n_source_run
    return n_source_run(2, 1e-6, m.PortConfig(100, m.DropPolicy("epd", threshold=50)), m.TcpConfig(), 1e-4, contention="deterministic")


def build_kernel(aot: bool = True) -> str:
    """``atmtcp warm``: compile the kernel into numba's cache (or find it there), then build the
    ahead-of-time module from it (:mod:`atmtcp.kernel.aot`) and check that it gives the JIT's
    results, array for array, on the warm-up run and on goyal1998's 5-source LAN for 0.1 s. A
    module that differs is deleted. Returns what was done, for the command to print; a failed
    build (no C compiler or Python headers) is reported, and runs keep the JIT."""
    from .kernel.entry import aot_runner, jit_runner, load_aot
    from .kernel.sources import AOT_PATH
    jit = jit_runner()
    try:
        run_kernel(warm_up_run(), entry=jit)
    except KernelCacheError as error:
        import shutil
        print(f"atmtcp: numba's cache of the kernel {CACHE_DIR} is damaged ({error.__cause__!r}): removed it; "
              "compiling the kernel again", file=sys.stderr, flush=True)
        shutil.rmtree(CACHE_DIR, ignore_errors=True)
        run_kernel(warm_up_run(), entry=jit)
    if not aot:
        return "kernel compiled (numba's cache)"
    try:
        from .kernel.aot import build
        build()
    except Exception as error:  # the JIT still works: say why the faster start is missing
        return f"kernel compiled (numba's cache); the ahead-of-time module was not built: {error!r}"
    module = aot_runner(load_aot())
    from .topologies import n_source_run
    lan = n_source_run(5, 5e-6, m.PortConfig(1000, m.DropPolicy("epd", threshold=800)), m.TcpConfig("reno"), 0.1, contention="deterministic")
    for check in (warm_up_run(), lan):
        expected, got = run_kernel(check, entry=jit).state, run_kernel(check, entry=module).state
        if not all(np.array_equal(a, b) for a, b in zip(expected, got)):
            AOT_PATH.unlink()
            raise RuntimeError(f"the ahead-of-time kernel differs from the JIT's; {AOT_PATH} deleted")
    return f"kernel compiled (numba's cache) and built ahead of time: {AOT_PATH}"


def simulate(run: m.Run) -> xr.Dataset:
    """Simulate ``run`` and return its counters, metrics and traces as a Dataset.

    Inside an experiment, a run another experiment already simulated is read from the run cache
    (:mod:`atmtcp.run_cache`, set by the runner for the process; docs/how-it-works.md, "The run cache",
    says why it is not an argument).

    Parameters
    ----------
    run : atmtcp.model.Run
        The network, connections, duration, seed and traces (e.g. from
        :func:`atmtcp.topologies.n_source_run`).

    Returns
    -------
    xarray.Dataset
        Goodput per source, port counters, drops by reason, efficiency, fairness and any traces
        (:func:`to_dataset`).

    Raises
    ------
    atmtcp.model.ModelError
        If ``run`` is not a :class:`~atmtcp.model.Run`.
    """
    if not isinstance(run, m.Run):
        raise m.ModelError("simulate", "run", run, "an atmtcp.model.Run (e.g. from atmtcp.topologies.n_source_run)")
    return run_cache.through(run, lambda: to_dataset(run, run_kernel(run)))


def cell_transmissions(compiled: Compiled) -> int:
    """Cells sent over any link: departures of simulated ports plus, for each VC, the cells
    that left its last simulated port times the folded ports after it; on the packet path, the
    cells ATM access points send, each sent again by every ATM switch port on its way."""
    S = compiled.state
    total = int(S.port[:, L.P_CELLS_OUT].sum())
    total += int(S.rport[:, L.RP_CELLS_OUT] @ np.asarray(compiled.atm_hops_after, np.int64)) if compiled.router_ports else 0
    for v in range(S.vc.shape[0]):
        total += int(S.vc[v, L.V_CELLS_PAST_LAST]) * compiled.folded_after[v]
    return total


class Counter(NamedTuple):
    """One result of a run: its values, dimensions (``source``, ``port``, ``drop_reason``
    or none), units and description."""
    dims: tuple[str, ...]
    values: object
    units: str
    description: str


def counters(run: m.Run, compiled: Compiled) -> dict[str, Counter]:
    """The run's counters and metrics, from the kernel's tables, as plain numpy values."""
    S = compiled.state
    data = S.vc[0::2]
    conn = S.conn
    delivered = conn[:, L.C_RCV_NXT].astype(np.int64)
    goodput = delivered * 8.0 / run.duration_s
    crossing = compiled.through_bottleneck
    shared = goodput[crossing]
    src, port = ("source",), ("port",)

    def column(table, col, dims, units, description):
        return Counter(dims, table[:, col].copy(), units, description)

    return {
        "goodput_bps": Counter(src, goodput, "bit/s", "bytes delivered in order to the receiving application x 8 / duration"),
        "delivered_bytes": Counter(src, delivered, "byte", "bytes delivered in order to the application"),
        "sent_bytes": column(conn, L.C_BYTES_SENT, src, "byte", "TCP payload bytes sent, retransmissions included"),
        "segments_sent": column(conn, L.C_SEGS_SENT, src, "1", "segments sent"),
        "segments_received": column(conn, L.C_SEGS_RECEIVED, src, "1",
                                    "distinct data segments that reached the receiver from warmup_s on "
                                    "(a retransmitted duplicate counts once; cheon 4.2.3)"),
        "retransmissions": column(conn, L.C_RETRANSMITS, src, "1", "segments sent again"),
        "timeouts": column(conn, L.C_TIMEOUTS, src, "1", "retransmission timeouts"),
        "fast_retransmits": column(conn, L.C_FAST_RETRANSMITS, src, "1", "fast retransmits (third duplicate ACK)"),
        "rtt_samples": column(conn, L.C_RTT_SAMPLES, src, "1", "round-trip samples folded into the RTO estimate"),
        "scripted_losses": column(conn, L.C_SCRIPTED_LOSSES, src, "1",
                                  "first transmissions lost by the run's loss script"),
        "frames_ok": column(data, L.V_FRAMES_OK, src, "1", "data packets reassembled"),
        "frames_bad": column(data, L.V_FRAMES_BAD, src, "1", "data frames discarded at reassembly (a cell was missing)"),
        "cells_dropped_by_source": column(data, L.V_CELLS_DROPPED, src, "cell",
                                          "data cells of the source dropped at any port"),
        "full_buffer_arrivals": column(data, L.V_FULL_ARRIVALS, src, "cell",
                                       "data cells of the source that arrived at a full buffer"),
        "cells_in": column(S.port, L.P_CELLS_IN, port, "cell", "cells arriving at the port"),
        "cells_out": column(S.port, L.P_CELLS_OUT, port, "cell", "cells fully transmitted"),
        "cells_queued": column(S.port, L.P_QUEUE, port, "cell", "cells in the buffer at the end"),
        "max_queue": column(S.port, L.P_MAX_QUEUE, port, "cell", "largest buffer occupancy"),
        "cells_dropped": Counter(("port", "drop_reason"), S.port[:, list(L.DROP_COLUMNS)].copy(), "cell",
                                 "cells dropped, by reason"),
        "capacity_bps": Counter((), capacity_bps(shared, compiled.framing[crossing], compiled.bottleneck_bps),
                                "bit/s", f"maximum TCP goodput of the bottleneck {compiled.bottleneck} "
                                "(goyal1998 3.2: 125.2 Mbps)"),
        "efficiency": Counter((), efficiency(shared, compiled.framing[crossing], compiled.bottleneck_bps), "1",
                              f"goodput of the connections through {compiled.bottleneck} / capacity_bps "
                              "(goyal1998 3.2; per connection framing, see atmtcp.metrics.efficiency)"),
        "fairness": Counter((), fairness_index(goodput), "1", "Jain's fairness index of the goodputs"),
        "events": Counter((), int(S.g[L.G_EVENTS]), "1", "kernel events processed"),
        "cell_transmissions": Counter((), cell_transmissions(compiled), "cell",
                                      "cells transmitted on all links, folded ports included"),
        **(packet_counters(compiled) if compiled.router_ports else {}),
    }


def packet_counters(compiled: Compiled) -> dict[str, Counter]:
    """The packet path's counters (:mod:`atmtcp.kernel.packets`): per router port, per router
    queue, and the packets each source lost."""
    S = compiled.state
    rport, rq = ("router_port",), ("router_queue",)

    def column(table, col, dims, units, description):
        return Counter(dims, table[:, col].copy(), units, description)

    return {
        "packets_dropped_by_source": column(S.flow[0::2], L.FL_DROPPED, ("source",), "packet",
                                            "data packets of the source dropped at router ports"),
        "acks_dropped_by_source": column(S.flow[1::2], L.FL_DROPPED, ("source",), "packet",
                                         "ACKs of the source's connection dropped at router ports"),
        "measured_payload_bytes": column(S.flow[0::2], L.FL_MEASURED_BYTES, ("source",), "byte",
                                         f"TCP payload of the source's packets sent by {compiled.bottleneck}"),
        "router_packets_in": column(S.rport, L.RP_PKTS_IN, rport, "packet", "packets arriving at the port"),
        "router_packets_out": column(S.rport, L.RP_PKTS_OUT, rport, "packet",
                                     "packets sent (at a port without queues: from their arrival on)"),
        "router_cells_out": column(S.rport, L.RP_CELLS_OUT, rport, "cell", "AAL5 cells sent by an ATM access point"),
        "queue_packets_in": column(S.rq, L.RQ_PKTS_IN, rq, "packet", "packets arriving at the queue"),
        "queue_packets": column(S.rq, L.RQ_PKTS, rq, "packet", "packets in the queue at the end"),
        "max_queue_packets": column(S.rq, L.RQ_MAX_PKTS, rq, "packet", "largest occupancy in packets"),
        "max_queue_bytes": column(S.rq, L.RQ_MAX_BYTES, rq, "byte", "largest occupancy in IP bytes"),
        "queue_packets_dropped": Counter(("router_queue", "router_drop_reason"),
                                         S.rq[:, list(L.ROUTER_DROP_COLUMNS)].copy(), "packet",
                                         "packets dropped, by reason (RED's early drops: 'early')"),
        "ewa_acks": column(S.rq, L.RQ_EWA_ACKS, rq, "1", "ACKs whose window EWA computed (ewa 3), for the queue's data"),
        "ewa_acks_marked_down": column(S.rq, L.RQ_EWA_MARKED_DOWN, rq, "1",
                                       "ACKs whose advertised window EWA lowered (eq. 3.1)"),
        "ewa_alpha": column(S.rqf, L.RQF_EWA_ALPHA, rq, "1", "EWA's alpha at the end (0: no EWA)"),
        "priority_on_s": Counter(rport, priority_on_ns(S) / NS, "s",
                                 "time the port's high-priority VC was on (ewa 4.5; 0: none)"),
    }


def priority_on_ns(S) -> np.ndarray:
    """Each router port's priority VC's time on up to the run's end: its finished ON periods, and
    the one still running."""
    running = S.rport[:, L.RP_PRIORITY_ON] == 1
    return S.rport[:, L.RP_PRIORITY_ON_NS] + np.where(running, S.g[L.G_END] - S.rport[:, L.RP_PRIORITY_SINCE], 0)


def _add_sampled(parts: _Parts, fields: tuple[str, ...], described: dict[str, tuple[str, str]], column,
                 dims) -> None:
    """``parts["sampled_<field>"]`` for each of ``fields``: ``column(i)``, the samples of the i-th field, with
    the units and description ``described[field]``, at the sampling instants."""
    for i, name in enumerate(fields):
        units, description = described[name]
        parts[f"sampled_{name}"] = _var(column(i).copy(), dims, units, description + " at the sampling instant")


def _var(values, dims, units, description):
    import xarray as xr
    return xr.Variable(dims, values, {"units": units, "description": description})


def to_dataset(run: m.Run, compiled: Compiled) -> xr.Dataset:
    """Label the kernel's tables (see the variables' ``description`` attributes).

    Parameters
    ----------
    run : atmtcp.model.Run
        The run that was simulated.
    compiled : atmtcp.compile.Compiled
        Its kernel state after the run (:func:`run_kernel`).

    Returns
    -------
    xarray.Dataset
        One variable per counter of :func:`counters`, the metrics and the traces, on the coordinates
        ``source``, ``port`` and ``drop_reason``.
    """
    import xarray as xr
    parts = _Parts(
        {name: _var(c.values, c.dims, c.units, c.description) for name, c in counters(run, compiled).items()},
        coords={
            "source": np.arange(len(run.connections)),
            "port": compiled.port_names,
            "drop_reason": list(L.DROP_REASON_NAMES),
            **({"router_port": compiled.router_ports, "router_queue": compiled.router_queues,
                "router_drop_reason": list(L.ROUTER_DROP_NAMES)} if compiled.router_ports else {}),
        },
        attrs={
            "duration_s": run.duration_s,
            "warmup_s": run.warmup_s,
            "seed": run.seed,
            "folded_ports": ", ".join(compiled.folded_ports),
            "bottleneck": compiled.bottleneck,
        },
    )
    _add_traces(parts, run, compiled)
    return xr.Dataset(parts.variables, coords=parts.coords, attrs=parts.attrs)


class _Parts:
    """The variables, coordinates and attributes of :func:`to_dataset`'s Dataset, gathered before the Dataset is
    made (``parts[name] = variable``, ``parts.coords[name] = ...``, ``parts.attrs[name] = ...``): xarray aligns
    the whole Dataset again for each variable added to it, which took most of the labelling of a short run
    (ewa's ten connections over 1 s: 14.3 ms, against 9.1 ms in the kernel)."""

    def __init__(self, variables: dict, coords: dict, attrs: dict):
        self.variables, self.coords, self.attrs = variables, coords, attrs

    def __setitem__(self, name: str, variable) -> None:
        self.variables[name] = variable


def _add_traces(parts: _Parts, run: m.Run, compiled: Compiled) -> None:
    S = compiled.state
    n_rec = int(S.g[L.G_TRACE_LEN])
    if S.trace_t.size:
        parts["trace_time"] = _var(S.trace_t[:n_rec] / NS, ("record",), "s", "time of the TCP trace record")
        parts["trace_source"] = _var(S.trace_i[:n_rec, 0].copy(), ("record",), "1", "connection index")
        parts["trace_kind"] = _var(np.array(L.TRACE_KIND_NAMES)[S.trace_i[:n_rec, 1]], ("record",), "1",
                                   "what was recorded: " + ", ".join(L.TRACE_KIND_NAMES))
        parts["trace_value"] = _var(S.trace_v[:n_rec].copy(), ("record",), "byte",
                                    "cwnd or ssthresh (bytes), sequence or ACK number (bytes)")
        parts.attrs["trace_truncated"] = int(S.g[L.G_TRACE_TRUNCATED])
        if parts.attrs["trace_truncated"]:
            last_s = parts.variables["trace_time"].values[-1]
            warnings.warn(f"the TCP trace filled its {S.trace_t.size} records at t = {last_s:.3f} s and stops "
                          "there: raise TraceConfig.max_records or narrow start_s/stop_s", stacklevel=3)
    if compiled.n_samples and compiled.router_ports:
        _add_packet_samples(parts, run, compiled)
    elif compiled.n_samples:
        times = np.arange(compiled.n_samples) * compiled.sample_interval_ns / NS
        parts.coords["sample_time"] = _var(times, ("sample_time",), "s", "sampling instant")
        parts.coords["traced_port"] = compiled.traced_ports
        parts["queue_cells"] = _var(S.qsample.copy(), ("sample_time", "traced_port"), "cell",
                                    "buffer occupancy at the sampling instant")
        parts["departed_cells"] = _var(S.osample.copy(), ("sample_time", "traced_port"), "cell",
                                       "cumulative cells transmitted by the sampling instant")
        full_log = S.droplog[:int(S.g[L.G_DROPLOG_LEN])]
        captured = full_log[full_log[:, 3] == L.CAPTURE]
        parts["capture_time"] = _var(captured[:, 0] / NS, ("capture",), "s",
                                     "time a VC was put on a traced port's drop-list (PPD, EPD, ESPD ...)")
        parts["capture_source"] = _var(S.vc[captured[:, 2], L.V_CONN], ("capture",), "1",
                                       "connection of the captured VC")
        parts["capture_is_ack"] = _var(S.vc[captured[:, 2], L.V_IS_ACK], ("capture",), "1",
                                       "1 if the captured VC carries ACKs")
        parts["capture_port"] = _var(np.array(compiled.port_names, dtype=object)[captured[:, 1]].astype(str)
                                     if len(captured) else np.array([], dtype=str), ("capture",), "1", "port")
        log = full_log[full_log[:, 3] != L.CAPTURE]
        n_drop = len(log)
        parts["drop_time"] = _var(log[:, 0] / NS, ("drop",), "s", "time of a cell drop at a traced port")
        parts["drop_port"] = _var(np.array(compiled.port_names, dtype=object)[log[:, 1]].astype(str)
                                  if n_drop else np.array([], dtype=str), ("drop",), "1", "port")
        parts["drop_source"] = _var(S.vc[log[:, 2], L.V_CONN] if n_drop else np.array([], np.int64),
                                    ("drop",), "1", "connection whose cell was dropped")
        parts["drop_is_ack"] = _var(S.vc[log[:, 2], L.V_IS_ACK] if n_drop else np.array([], np.int64),
                                    ("drop",), "1", "1 if the cell belonged to an ACK")
        parts["drop_reason_code"] = _var(log[:, 3].copy(), ("drop",), "1",
                                         "index into the drop_reason coordinate")
        parts["drop_seq"] = _var(log[:, 4].copy(), ("drop",), "byte",
                                 "sequence number of the dropped cell's segment (an ACK's cell: its ACK number)")
        parts.attrs["droplog_truncated"] = int(S.g[L.G_DROPLOG_TRUNCATED])
        if parts.attrs["droplog_truncated"]:
            warnings.warn(f"the drop log filled its {S.droplog.shape[0]} records and stops there: raise "
                          "TraceConfig.max_records", stacklevel=3)


def _add_packet_samples(parts: _Parts, run: m.Run, compiled: Compiled) -> None:
    """The sampled router queues and connections (``rsample``) on a ``sample_time`` coordinate."""
    S = compiled.state
    times = np.arange(compiled.n_samples) * compiled.sample_interval_ns / NS
    n_queues = len(compiled.sampled_queues)
    parts.coords["sample_time"] = _var(times, ("sample_time",), "s", "sampling instant")
    parts.coords["sampled_queue"] = compiled.sampled_queues
    per_queue = len(L.QUEUE_SAMPLE_FIELDS)
    columns = S.rsample[:, :per_queue * n_queues]
    parts["queue_bytes"] = _var(columns[:, 0::per_queue].copy(), ("sample_time", "sampled_queue"), "byte",
                                "IP bytes in the router queue at the sampling instant")
    parts["queue_packets_sampled"] = _var(columns[:, 1::per_queue].copy(), ("sample_time", "sampled_queue"),
                                          "packet", "packets in the router queue at the sampling instant")
    parts["queue_dropped_sampled"] = _var(columns[:, 2::per_queue].copy(), ("sample_time", "sampled_queue"),
                                          "packet", "packets the router queue had dropped by the sampling instant")
    width = len(L.SAMPLED_CONNECTION_FIELDS)
    per_source = S.rsample[:, per_queue * n_queues:].reshape(compiled.n_samples, len(run.connections), width)
    described = {
        "measured_bytes": ("byte", f"cumulative TCP payload of the source sent by {compiled.bottleneck}"),
        "snd_max": ("byte", "highest sequence number sent + 1 (the sequence number's growth)"),
        "snd_una": ("byte", "lowest unacknowledged sequence number"),
        "cwnd": ("byte", "congestion window"),
        "snd_wnd": ("byte", "window advertised by the last ACK the source received (what EWA fed back)"),
        "dropped": ("packet", "data packets of the source dropped at router ports so far"),
        "timeouts": ("1", "retransmission timeouts of the source so far"),
    }
    _add_sampled(parts, L.SAMPLED_CONNECTION_FIELDS, described, lambda i: per_source[:, :, i],
                 ("sample_time", "source"))
    width = len(L.EWA_SAMPLE_FIELDS)
    described = {
        "alpha": ("1", "EWA's alpha (ewa 3.2)"),
        "average_queue": ("packet", "EWA's filtered average queue (ewa 3.2, gain g)"),
        "feedback": ("packet", "EWA's feedback f(B - Q) for an ACK passing at the instant (eq. 3.3 or 3.4)"),
        "available_rate": ("1", "share of the link's rate the queue's VC has (below 1 while a priority VC is on)"),
    }
    _add_sampled(parts, L.EWA_SAMPLE_FIELDS, described, lambda i: S.rfsample[:, i::width],
                 ("sample_time", "sampled_queue"))
