"""The YATS peer: an atmtcp run translated into a Luayats script, run by ``luayats-bin`` and read back.

YATS (Yet Another Tiny Simulator, TU Dresden; Luayats, github.com/hleuwer/luayats, scripts it in Lua) is an
open cell-level ATM simulator: unlike ns-3 it has cells, AAL5, a tail-drop multiplexer (``mux``), an EPD
multiplexer (``muxEPD``) and a 4.4BSD-like TCP (``tcpipsend``/``tcpiprec``: slow start, congestion
avoidance, fast retransmit and Reno's fast recovery). It is GPL and never part of atmtcp: the user builds it
with ``benchmarks/yats/build.sh PREFIX`` (its patches are in ``benchmarks/yats/patches/``) and names the
prefix (``make validate YATS=PREFIX``, or :data:`PREFIX_ENV`); without it its part of the validation is
skipped with one line.

:func:`from_n_source` reads goyal1998's N-source network (:func:`atmtcp.topologies.n_source_network`) out of
the very :class:`atmtcp.model.Run` our kernel simulates; :func:`script` writes the Lua script (a table of
those parameters, :func:`lua_parameters`, then the fixed network of :data:`LUA_BODY`); :func:`run` runs it
and :func:`parse` reads its lines. Nothing of YATS is copied here: the script only calls its Lua API.

What the seed changes in YATS (``yats.sim:setRand(seed + 1)``): the order in which each multiplexer takes
the cells that arrive in one slot (as our slotted ports, drawn from another generator), and the phase of
each TCP's 100 ms clock (ours starts every clock at t = 0). The processing-time jitter (``ph_ef``) is off.
"""
from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import model as m
from ..kernel.aal5 import CELL_BYTES, packet_cells

PREFIX_ENV = "ATMTCP_YATS"
"""The environment variable naming the YATS install prefix (``build.sh PREFIX``): ``PREFIX/bin/luayats-bin``
and ``PREFIX/share/luayats``."""
NAME = "YATS"
YATS_TRAILER_BYTES = 8
"""``aal5send`` always appends the 8-byte AAL5 trailer; the LLC/SNAP header is its ``header`` parameter."""
YATS_INITIAL_RTO_S, YATS_MAX_RTO_S = 3.0, 64.0
"""Fixed in ``tcpipsend`` (RFC 1122's 3 s before the first sample; 64 s bound)."""
PROCESSING_SLOTS = 1
"""YATS cannot schedule a host's processing in the same slot: one slot per segment sent, per segment
received and per ACK (ours: zero)."""


@dataclass(frozen=True)
class YatsRun:
    """One YATS run of goyal1998's N-source network, in YATS' units (slots of one cell time at the common
    link rate). ``access_slots[i]``/``egress_slots[i]``: source i's and destination i's link delays; the
    bottleneck port (SW1 towards SW2) is ``policy`` ``"tail"`` (``mux``) or ``"epd"`` (``muxEPD`` with
    ``epd_threshold`` cells), ``buffer_cells`` in all, the cell in service included; ``unmatched``: what
    the translation could not express."""

    n: int
    rate_bps: float
    slots: int
    seed: int
    access_slots: tuple[int, ...]
    trunk_slots: int
    egress_slots: tuple[int, ...]
    buffer_cells: int
    policy: str
    epd_threshold: int | None
    mss: int
    mtu: int
    llc_bytes: int
    rcv_wnd: int
    initial_ssthresh: int
    fast_retransmit: bool
    timestamps: bool
    tick_s: float
    rto_min_s: float
    unmatched: tuple[str, ...] = field(default=())

    @property
    def slot_s(self) -> float:
        """One cell time at the links' one rate (s), YATS's time slot."""
        return CELL_BYTES * 8 / self.rate_bps

    @property
    def simulated_s(self) -> float:
        """The time YATS simulated (s): its slots times :attr:`slot_s`."""
        return self.slots * self.slot_s

    def script(self, yats_home: str | Path) -> str:
        """The Lua script of this run (:func:`script`)."""
        return script_of(lua_parameters(self), LUA_BODY, yats_home)


def delay_slots(delay_s: float, slot_s: float) -> int:
    """A link delay in whole slots, at least one (YATS' ``line`` needs a delay of >= 1 slot)."""
    return max(1, round(delay_s / slot_s))


def _tcp_of(tcp: m.TcpConfig, where: str = "yats.from_n_source",
            delayed_ack_ok: bool = False) -> tuple[dict, tuple[str, ...]]:
    """``tcpipsend``'s settings for ``tcp`` and what they do not express (``delayed_ack_ok``: a delayed ACK is
    let through, as a difference in the list, instead of refused)."""
    if tcp.flavor not in ("vanilla", "reno"):
        raise ValueError(f"{where}: TcpConfig.flavor {tcp.flavor!r} has no YATS TCP "
                         "(tcpipsend is Reno, or vanilla with fast retransmit off)")
    if tcp.delayed_ack and not delayed_ack_ok:
        raise ValueError(f"{where}: TcpConfig.delayed_ack=True is not translated (tcpiprec acknowledges every "
                         "full segment at once, not 4.4BSD's every second segment)")
    settings = {"fast_retransmit": tcp.flavor == "reno", "timestamps": tcp.timestamps, "tick_s": tcp.granularity_s,
                "rto_min_s": tcp.min_rto_ticks * tcp.granularity_s,
                "initial_ssthresh": tcp.initial_ssthresh if tcp.initial_ssthresh is not None else tcp.rcv_wnd}
    coarse = " (a 1-tick RTT gives 0.4-0.6 s; ours 4.4BSD's 0.2-0.3 s)" if tcp.granularity_s >= 0.05 else ""
    lacks = ["RTO = srtt + 4 x mean deviation in ticks, RTT timed in ticks of a clock of random phase" + coarse +
             "; the timer fires RTO slots after it is set, not on a tick",
             "cwnd used in whole segments (grows in floating point, as ours)"]
    if tcp.delayed_ack:
        lacks.append(f"delayed ACKs: tcpiprec acknowledges every full segment at once (its window update on one MSS, "
                     f"RFC 1122), ours every second segment or after {tcp.delayed_ack_max_s * 1e3:g} ms")
    if tcp.flavor == "reno":
        lacks.append("Reno's recovery per YATS: ssthresh = max(2, min(wnd, cwnd) / 2) whole segments, cwnd = "
                     "ssthresh on the first new ACK, then one congestion-avoidance step on that ACK")
    if tcp.ssthresh_rule != "bsd":   # tcpipsend: max(2, min(wnd, cwnd) / 2 / mss) segments, 4.4BSD's rule
        lacks.append(f"ssthresh rule {tcp.ssthresh_rule!r} (YATS: 4.4BSD's min(wnd, cwnd) / 2, the same while "
                     "cwnd <= wnd)")
    if tcp.flavor == "reno" and not tcp.recovery_exit_opens:
        lacks.append("YATS opens the window on the ACK that ends recovery, as 4.4BSD (ours: recovery_exit_opens "
                     "off)")
    if tcp.increase != "float":
        lacks.append(f"congestion-avoidance increase {tcp.increase!r} (YATS: mss^2 / cwnd in floating point)")
    if tcp.initial_rto_s != YATS_INITIAL_RTO_S or tcp.max_rto_s != YATS_MAX_RTO_S:
        lacks.append(f"initial RTO {tcp.initial_rto_s} s and maximum {tcp.max_rto_s} s (YATS: 3 s and 64 s)")
    return settings, tuple(lacks)


def one_tcp(run: m.Run, where: str) -> m.TcpConfig:
    """The one :class:`~atmtcp.model.TcpConfig` every connection of ``run`` shares (``where`` names the caller in
    the error otherwise)."""
    tcps = {c.tcp for c in run.connections}
    if len(tcps) != 1:
        raise ValueError(f"{where}: every connection must share one TcpConfig")
    return tcps.pop()


def one_rate(net: m.Network, where: str) -> float:
    """The one rate of every link of ``net`` (bit/s): YATS is slotted at one rate, without SONET framing or delay
    variation (``where`` names the caller in the error otherwise)."""
    rates = {link.rate_bps for link in net.links}
    if len(rates) != 1 or net.sonet or any(link.cdv_s for link in net.links):
        raise ValueError(f"{where}: YATS is slotted at one rate: every link must share one rate, without SONET "
                         "framing or delay variation")
    return rates.pop()


def _port_of(port: m.PortConfig) -> tuple[str, int | None]:
    kind = port.policy.kind
    if port.buffer_cells is None or kind not in ("tail", "epd") or port.drop_from_front != "none" \
            or port.randomized_tail:
        raise ValueError(f"yats.from_n_source: the bottleneck port ({kind!r}, buffer {port.buffer_cells}) is "
                         "not translated: YATS' mux (tail drop) and muxEPD need a finite buffer")
    if kind == "epd" and port.policy.capture_eom:
        raise ValueError("yats.from_n_source: EPD with capture_eom is not translated")
    return kind, port.policy.resolved_threshold(port.buffer_cells) if kind == "epd" else None


def from_n_source(run: m.Run) -> YatsRun:
    """goyal1998 Fig. 3 (:func:`atmtcp.topologies.n_source_network`) in YATS: S_i -> SW1 -> SW2 -> D_i,
    SW1's port towards SW2 the bottleneck, the ACKs back through SW2's port towards SW1 (a tail-drop mux
    of the same buffer) and per-VC demultiplexers in SW2 and SW1."""
    net = run.network
    if not isinstance(net, m.Network) or net.switches != ("SW1", "SW2"):
        raise ValueError("yats.from_n_source: not an N-source network (switches SW1, SW2)")
    tcp = one_tcp(run, "yats.from_n_source")
    if any(c.start_s != 0 or c.stop_s is not None or c.on_off is not None for c in run.connections):
        raise ValueError("yats.from_n_source: only persistent sources starting at t = 0 are translated")
    if run.aal5.trailer_bytes != YATS_TRAILER_BYTES:
        raise ValueError(f"yats.from_n_source: Aal5Config.trailer_bytes {run.aal5.trailer_bytes} (YATS: 8)")
    rate = one_rate(net, "yats.from_n_source")
    links = {(link.a, link.b): link for link in net.links}
    slot = CELL_BYTES * 8 / rate
    port = dict(net.ports).get("SW1->SW2", net.switch_port)
    policy, threshold = _port_of(port)
    settings, tcp_lacks = _tcp_of(tcp)
    delays = [links[(c.src, "SW1")].delay_s for c in run.connections] + [links[("SW1", "SW2")].delay_s]
    lacks = (f"link delays in whole slots ({min(delays) * 1e6:g} us -> {delay_slots(min(delays), slot)} slots "
             f"of {slot * 1e6:.3f} us)" if any(abs(d / slot - round(d / slot)) > 1e-9 for d in delays) else "",
             f"{PROCESSING_SLOTS} slot of host processing per segment and per ACK (ours: none)",
             "the seed also draws each TCP clock's phase (ours: every clock starts at t = 0)",
             "EPD: YATS drops every later cell of a refused or overflowed frame, its EOM too (ours lets the "
             "EOM in when there is room)" if policy == "epd" else "")
    lacks = tuple(x for x in lacks if x) + tcp_lacks
    return YatsRun(
        n=len(run.connections), rate_bps=rate, slots=round(run.duration_s / slot), seed=run.seed,
        access_slots=tuple(delay_slots(links[(c.src, "SW1")].delay_s, slot) for c in run.connections),
        trunk_slots=delay_slots(links[("SW1", "SW2")].delay_s, slot),
        egress_slots=tuple(delay_slots(links[("SW2", c.dst)].delay_s, slot) for c in run.connections),
        buffer_cells=port.buffer_cells, policy=policy, epd_threshold=threshold, mss=tcp.mss,
        mtu=tcp.mss + run.aal5.tcpip_header_bytes + (12 if tcp.timestamps else 0), llc_bytes=run.aal5.llc_bytes,
        rcv_wnd=tcp.rcv_wnd, unmatched=lacks, **settings)


def cells_per_segment(spec: YatsRun) -> int:
    """Cells of a full segment as YATS frames it (IP packet + LLC/SNAP + trailer), for the tests."""
    return packet_cells(spec.mtu, spec.llc_bytes + YATS_TRAILER_BYTES)


def _lua(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "{" + ", ".join(_lua(v) for v in value) + "}"
    if value is None:
        return "nil"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def lua_parameters(spec: YatsRun) -> dict:
    """The script's parameter table ``P`` (name -> value), every number of the run in YATS' units."""
    return {"n": spec.n, "rate": spec.rate_bps, "slots": spec.slots, "seed": spec.seed + 1,
            "access": spec.access_slots, "trunk": spec.trunk_slots, "egress": spec.egress_slots,
            "buffer": spec.buffer_cells, "policy": spec.policy, "epd_threshold": spec.epd_threshold,
            "mtu": spec.mtu, "llc": spec.llc_bytes, "rcv_wnd": spec.rcv_wnd, "ssthresh": spec.initial_ssthresh,
            "fretr": spec.fast_retransmit, "ts": spec.timestamps, "tick": spec.tick_s, "rtomin": spec.rto_min_s,
            "proc_slots": PROCESSING_SLOTS}


LUA_HEADER = r"""
-- Luayats' Lua modules without the GUI launcher (benchmarks/yats/README.md)
package.path = YHOME .. "/?.lua;" .. package.path
local _getenv = os.getenv
os.getenv = function(k) if k == "LUAYATSHOME" then return YHOME end return _getenv(k) end
LUAYATSRC = YHOME .. "/luayatsrc"
package.loaded["iuplua"] = {GetGlobal = function() return "X11" end,
                            Message = function(t, msg) io.stderr:write(t, ": ", msg, "\n") end}
package.loaded["readline"] = {}
package.loaded["bit"] = {}
require "yats.core"; require "yats.stdlib"; require "yats.misc"; require "yats.muxdmx"; require "yats.tcpip"
"""
"""Loads Luayats' Lua modules without its GUI: the start of every script (:data:`LUA_BODY`,
:data:`atmtcp.validation.yats_parking_lot.LUA_BODY`)."""

LUA_BODY = LUA_HEADER + r"""
local N, SLOT = P.n, 53 * 8 / P.rate
local PROC = (P.proc_slots + 0.5) * SLOT           -- truncated to proc_slots slots
yats.sim:setSlotLength(SLOT)
yats.sim:setRand(P.seed)
local tcps, tcpr = {}, {}
for i = 1, N do
  yats.cbrframe{"app" .. i, delta = 1, len = 8 * (P.mtu - 40), start_time = 1, connid = i,
                out = {"tcps" .. i, "data"}}
  tcps[i] = yats.tcpipsend{"tcps" .. i, buf = 4 * P.rcv_wnd, mtu = P.mtu, ts = P.ts, fretr = P.fretr,
                bitrate = P.rate, proctim = PROC, tick = P.tick, rtomin = P.rtomin, rec = "tcpr" .. i,
                out = {{"aal5s" .. i, "data"}, {"app" .. i, "ctrl"}}}
  yats.aal5send{"aal5s" .. i, vci = i, buf = 1000, header = P.llc,
                out = {{"ls" .. i, "line"}, {"tcps" .. i, "start"}}}
  yats.line{"ls" .. i, delay = P.access[i], out = {"sw1", "in" .. i}}
  yats.line{"ld" .. i, delay = P.egress[i], out = {"aal5r" .. i, "aal5rec"}}
  yats.aal5rec{"aal5r" .. i, out = {"tcpr" .. i, "data"}}
  tcpr[i] = yats.tcpiprec{"tcpr" .. i, wnd = P.rcv_wnd, proctim = PROC, iackdel = PROC,
                out = {{"sink" .. i, "sink"}, {"aal5a" .. i, "data"}}}
  yats.sink{"sink" .. i}
  yats.aal5send{"aal5a" .. i, vci = i, buf = 1000, header = P.llc,
                out = {{"la" .. i, "line"}, {"ctrlsink", "sink"}}}
  yats.line{"la" .. i, delay = P.egress[i], out = {"sw2r", "in" .. i}}
  yats.line{"lar" .. i, delay = P.access[i], out = {"aal5ra" .. i, "aal5rec"}}
  yats.aal5rec{"aal5ra" .. i, out = {"tcps" .. i, "ack"}}
end
yats.sink{"ctrlsink"}
local bottleneck
if P.policy == "epd" then
  bottleneck = yats.muxEPD{"sw1", ninp = N, buff = P.buffer - 1, thresh = P.epd_threshold, maxvci = N + 1,
                           out = {"trunk", "line"}}
else
  bottleneck = yats.mux{"sw1", ninp = N, buff = P.buffer - 1, maxvci = N + 1, out = {"trunk", "line"}}
end
yats.line{"trunk", delay = P.trunk, out = {"dmx2", "demux"}}
local dout, aout = {}, {}
for i = 1, N do dout[i] = {"ld" .. i, "line"}; aout[i] = {"lar" .. i, "line"} end
local dmx2 = yats.demux{"dmx2", maxvci = N, nout = N, out = dout}
yats.mux{"sw2r", ninp = N, buff = P.buffer - 1, maxvci = N + 1, out = {"trunkr", "line"}}
yats.line{"trunkr", delay = P.trunk, out = {"dmx1", "demux"}}
local dmx1 = yats.demux{"dmx1", maxvci = N, nout = N, out = aout}
for i = 1, N do dmx2:signal{i, i, i}; dmx1:signal{i, i, i} end

yats.sim:connect()
for i = 1, N do tcps[i].ssthresh = P.ssthresh end
yats._sim:_run(P.slots, P.slots + 1)

print(string.format("yats simulated_s %.9f", P.slots * SLOT))
for i = 1, N do
  local s = tcps[i]
  print(string.format("yats source %d %d %d %d %d", i, tcpr[i].user_bytes, s.xmitted_segments,
                      s.rexmitted_segments, s.rexmto))
end
print(string.format("yats bottleneck_dropped_cells %d", bottleneck:getLossTot()))
"""
"""The network (:func:`from_n_source`'s docstring) and the output lines :func:`parse` reads: per source the
bytes its receiving application got in order (``tcpiprec.user_bytes``), segments sent, retransmitted and
timeouts."""


def script(spec: YatsRun, yats_home: str | Path) -> str:
    """The Lua script of ``spec``: ``YHOME`` (the Lua modules, ``PREFIX/share/luayats``), the table ``P``
    (:func:`lua_parameters`) and :data:`LUA_BODY`."""
    return spec.script(yats_home)


def script_of(parameters: dict, body: str, yats_home: str | Path) -> str:
    """A Lua script: ``YHOME``, the table ``P`` of ``parameters`` and ``body``."""
    params = ",\n  ".join(f"{k} = {_lua(v)}" for k, v in parameters.items())
    return (f"-- generated by atmtcp.validation.yats from an atmtcp Run\nYHOME = {_lua(str(yats_home))}\n"
            f"P = {{\n  {params},\n}}\n{body}")


def prefix() -> Path | None:
    """The YATS prefix named by :data:`PREFIX_ENV`, or ``None``."""
    value = os.environ.get(PREFIX_ENV, "").strip()
    return Path(value) if value else None


def binary() -> Path | None:
    """``PREFIX/bin/luayats-bin`` if it exists."""
    p = prefix()
    exe = p / "bin" / "luayats-bin" if p else None
    return exe if exe is not None and exe.is_file() and os.access(exe, os.X_OK) else None


def skip_reason() -> str:
    """Why the YATS part is skipped (``""``: it runs)."""
    p = prefix()
    if p is None:
        return f"YATS: skipped (no prefix: make validate YATS=<prefix>, or {PREFIX_ENV}=<prefix>)"
    if binary() is None:
        return f"YATS: skipped ({p}/bin/luayats-bin not found; build it with benchmarks/yats/build.sh {p})"
    return ""


@functools.lru_cache(maxsize=1)
def version() -> str:
    """``YATS (Luayats <commit>)`` from the prefix's ``share/luayats/SOURCE_VERSION`` (written by build.sh)."""
    p = prefix()
    stamp = p / "share" / "luayats" / "SOURCE_VERSION" if p else None
    text = stamp.read_text().strip() if stamp is not None and stamp.exists() else "unknown source"
    return f"{NAME} (Luayats {text[:7] if re.fullmatch(r'[0-9a-f]{40}', text) else text})"


LINE = re.compile(r"^yats (simulated_s|source|bottleneck_dropped_cells) (.*)$")


def parse(text: str, n: int) -> dict:
    """The script's output lines as arrays: ``goodput_bytes``, ``segments``, ``retransmitted``,
    ``timeouts`` (per source), ``dropped_cells``, ``simulated_s``."""
    import numpy as np
    out = {"goodput_bytes": np.full(n, np.nan), "segments": np.full(n, np.nan), "retransmitted": np.full(n, np.nan),
           "timeouts": np.full(n, np.nan)}
    for line in text.splitlines():
        match = LINE.match(line.strip())
        if not match:
            continue
        key, rest = match.groups()
        if key == "source":
            i, *values = (int(v) for v in rest.split())
            for name, v in zip(("goodput_bytes", "segments", "retransmitted", "timeouts"), values):
                out[name][i - 1] = v
        else:
            out[{"simulated_s": "simulated_s", "bottleneck_dropped_cells": "dropped_cells"}[key]] = float(rest)
    if "simulated_s" not in out or np.isnan(out["goodput_bytes"]).any():
        raise RuntimeError(f"yats.parse: incomplete YATS output:\n{text[-2000:]}")
    return out


def run(spec, exe: Path | None = None) -> dict:
    """Run ``spec`` (a :class:`YatsRun` or :class:`atmtcp.validation.yats_parking_lot.YatsParkingLot`: anything
    with ``script(yats_home)`` and ``n``) in YATS (``exe``: ``luayats-bin``, by default :func:`binary`) and :func:`parse` its output."""
    exe = exe or binary()
    if exe is None:
        raise RuntimeError(skip_reason())
    home = Path(exe).resolve().parent.parent / "share" / "luayats"
    with tempfile.TemporaryDirectory(prefix="atmtcp-yats-") as tmp:
        path = Path(tmp) / "run.lua"
        path.write_text(spec.script(home))
        done = subprocess.run([str(exe), str(path)], capture_output=True, text=True, cwd=tmp,
                              env={**os.environ, "HOME": tmp})
    if done.returncode != 0:
        raise RuntimeError(f"luayats-bin failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return parse(done.stdout, spec.n)
