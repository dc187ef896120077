"""cheon's parking lot (:func:`atmtcp.topologies.parking_lot`, cheon Fig. 1) in YATS: the translation of the
:class:`atmtcp.model.Run` of :func:`atmtcp.papers.cheon.scenario.cheon_run` into a Luayats script
(:mod:`atmtcp.validation.yats` for the peer, its units and how it is run).

The network: group g's sources enter switch SW(g+1); each switch's port towards the next is a ``mux`` (RCD: tail
drop) or ``muxEPD`` (EPD) of the run's buffer and threshold, whose first input is the trunk from the switch before
and whose others are the group's access links; the last trunk feeds a demultiplexer to the destinations. The ACKs
go back through the last switch's port towards the one before (a tail-drop ``mux`` of the same buffer, one input
per destination) and demultiplexers in each switch, to the sources or the trunk further back. Ports with a single
input (a switch's port to one host, the ACKs' ports further back) never hold a queue, in ours as in YATS: the
script leaves them out. Each source starts at its session's start time (the seed's draw, cheon 2's jitter); the
hosts' IP service rate (cheon 2: 10,500 or 4,000 packets/s) is ``tcpipsend``'s processing time per segment.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import model as m
from ..kernel.aal5 import CELL_BYTES
from .yats import LUA_HEADER, PROCESSING_SLOTS, YATS_TRAILER_BYTES, _tcp_of, delay_slots, one_rate, one_tcp, script_of

WHERE = "yats.from_parking_lot"


@dataclass(frozen=True)
class YatsParkingLot:
    """One YATS run of a parking lot, in slots of one cell time. ``groups[g]``: the number of sources entering
    switch g + 1; ``access_slots``, ``sink_slots``, ``start_slots``: per source (session order); ``trunk_slots[g]``:
    the link from switch g + 1 to g + 2; every forward port ``policy`` ``"tail"`` or ``"epd"`` (threshold
    ``epd_threshold``) of ``buffer_cells``; ``send_proc_s``: a source's time per segment (its IP service rate);
    ``warmup_slots``: the slots before the goodput is counted; ``unmatched``: what YATS does not express."""

    groups: tuple[int, ...]
    rate_bps: float
    slots: int
    warmup_slots: int
    seed: int
    access_slots: tuple[int, ...]
    trunk_slots: tuple[int, ...]
    sink_slots: tuple[int, ...]
    start_slots: tuple[int, ...]
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
    send_proc_s: float
    ack_delay_s: float
    unmatched: tuple[str, ...] = field(default=())

    @property
    def n(self) -> int:
        """The number of sessions."""
        return sum(self.groups)

    @property
    def slot_s(self) -> float:
        """One cell time at the links' rate (s)."""
        return CELL_BYTES * 8 / self.rate_bps

    def lua_parameters(self) -> dict:
        """The script's table ``P`` (name -> value)."""
        return {"groups": self.groups, "rate": self.rate_bps, "slots": self.slots, "warm": self.warmup_slots,
                "seed": self.seed + 1, "access": self.access_slots, "trunks": self.trunk_slots,
                "sink": self.sink_slots, "start": self.start_slots, "buffer": self.buffer_cells,
                "policy": self.policy, "epd_threshold": self.epd_threshold, "mtu": self.mtu, "llc": self.llc_bytes,
                "rcv_wnd": self.rcv_wnd, "ssthresh": self.initial_ssthresh, "fretr": self.fast_retransmit,
                "ts": self.timestamps, "tick": self.tick_s, "rtomin": self.rto_min_s, "send_proc": self.send_proc_s,
                "ackdel": self.ack_delay_s, "proc_slots": PROCESSING_SLOTS}

    def script(self, yats_home: str | Path) -> str:
        """The Lua script (:data:`LUA_BODY`)."""
        return script_of(self.lua_parameters(), LUA_BODY, yats_home)


def _groups(run: m.Run) -> tuple[tuple[int, ...], dict, list[str]]:
    net = run.network
    if not isinstance(net, m.Network) or len(net.switches) < 2:
        raise ValueError(f"{WHERE}: not a parking lot (a chain of switches SW1 .. SWk)")
    links = {(link.a, link.b): link for link in net.links}
    switch_of = {}
    for c in run.connections:
        attached = [b for (a, b) in links if a == c.src and b in net.switches]
        if len(attached) != 1 or (net.switches[-1], c.dst) not in links:
            raise ValueError(f"{WHERE}: connection {c.src} -> {c.dst} does not enter one switch and leave the last")
        switch_of[c.src] = net.switches.index(attached[0])
    order = [switch_of[c.src] for c in run.connections]
    if order != sorted(order) or max(order) > len(net.switches) - 2:
        raise ValueError(f"{WHERE}: sessions must be numbered by the switch they enter, before the last switch")
    groups = tuple(order.count(g) for g in range(len(net.switches) - 1))
    return groups, links, list(net.switches)


def _policy(port: m.PortConfig) -> tuple[str, int | None, tuple[str, ...]]:
    kind = port.policy.kind
    if port.buffer_cells is None or kind not in ("tail", "epd") or port.drop_from_front != "none" \
            or port.randomized_tail:
        raise ValueError(f"{WHERE}: the switch ports ({kind!r}, buffer {port.buffer_cells}) are not translated: "
                         "YATS has tail drop (mux) and EPD (muxEPD) of a finite buffer; no PPD, no ESPD")
    if kind == "tail":
        return "tail", None, ()
    lacks = ["EPD: YATS drops every later cell of a refused or overflowed frame, its EOM too (ours lets the EOM in "
             "when there is room)"]
    if port.policy.capture_eom:
        lacks.append("EPD's capture of the VC by a dropped EOM (cheon's pseudocode, ours): YATS frees the VC "
                     "at the EOM")
    return "epd", port.policy.resolved_threshold(port.buffer_cells), tuple(lacks)


def from_parking_lot(run: m.Run) -> YatsParkingLot:
    """cheon Fig. 1 (and its Appendix) in YATS (the module docstring)."""
    groups, links, switches = _groups(run)
    net = run.network
    tcp = one_tcp(run, WHERE)
    if any(c.stop_s is not None or c.on_off is not None for c in run.connections):
        raise ValueError(f"{WHERE}: only persistent sources are translated")
    if run.aal5.trailer_bytes < YATS_TRAILER_BYTES:
        raise ValueError(f"{WHERE}: Aal5Config.trailer_bytes {run.aal5.trailer_bytes} is below YATS' 8")
    rate = one_rate(net, WHERE)
    ports = dict(net.ports)
    named = {ports.get(f"{a}->{b}", net.switch_port) for a, b in zip(switches, switches[1:])}
    if len(named) != 1:
        raise ValueError(f"{WHERE}: every trunk port must share one PortConfig")
    port = named.pop()
    policy, threshold, port_lacks = _policy(port)
    slot = CELL_BYTES * 8 / rate
    settings, tcp_lacks = _tcp_of(tcp, WHERE, delayed_ack_ok=True)
    trunks = [links[(a, b)].delay_s for a, b in zip(switches, switches[1:])]
    access = [links[(c.src, switches[g])].delay_s for c, g in
              zip(run.connections, [g for g, k in enumerate(groups) for _ in range(k)])]
    sink = [links[(switches[-1], c.dst)].delay_s for c in run.connections]
    delays = access + trunks + sink
    # the header that YATS' AAL5 does not add (the LLC/SNAP of ours and cheon's 14 bytes beyond the 8 of the trailer)
    llc = run.aal5.llc_bytes + run.aal5.trailer_bytes - YATS_TRAILER_BYTES
    pps = net.ip_service_pps
    lacks = [f"link delays in whole slots ({min(delays) * 1e6:g} us -> {delay_slots(min(delays), slot)} slots of "
             f"{slot * 1e6:.3f} us)" if any(abs(d / slot - round(d / slot)) > 1e-9 for d in delays) else "",
             "session starts in whole slots (cbrframe's start_time)",
             f"{PROCESSING_SLOTS} slot of host processing per segment received and per ACK (ours: none)",
             "the hosts' IP service rate as tcpipsend's processing time per segment sent (1 / rate), applied to "
             "the sources only (ours: every host's IP layer)" if pps else
             f"{PROCESSING_SLOTS} slot of host processing per segment sent (ours: none)",
             "the seed also draws each TCP clock's phase (ours: every clock starts at t = 0)",
             "ports with one input (to each destination, the ACKs' ports beyond the last switch's) left out: they "
             "never queue"]
    return YatsParkingLot(
        groups=groups, rate_bps=rate, slots=round(run.duration_s / slot), warmup_slots=round(run.warmup_s / slot),
        seed=run.seed, access_slots=tuple(delay_slots(d, slot) for d in access),
        trunk_slots=tuple(delay_slots(d, slot) for d in trunks), sink_slots=tuple(delay_slots(d, slot) for d in sink),
        start_slots=tuple(max(1, round(c.start_s / slot)) for c in run.connections),
        buffer_cells=port.buffer_cells, policy=policy, epd_threshold=threshold, mss=tcp.mss,
        mtu=tcp.mss + run.aal5.tcpip_header_bytes + (12 if tcp.timestamps else 0), llc_bytes=llc,
        rcv_wnd=tcp.rcv_wnd, send_proc_s=(1.0 / pps) if pps else (PROCESSING_SLOTS + 0.5) * slot,
        ack_delay_s=tcp.delayed_ack_max_s if tcp.delayed_ack else 0.2,
        unmatched=tuple(x for x in lacks if x) + port_lacks + tcp_lacks, **settings)


LUA_BODY = LUA_HEADER + r"""
local G, SLOT = #P.groups, 53 * 8 / P.rate
local N = 0
for g = 1, G do N = N + P.groups[g] end
local PROC = (P.proc_slots + 0.5) * SLOT           -- truncated to proc_slots slots
yats.sim:setSlotLength(SLOT)
yats.sim:setRand(P.seed)
local tcps, tcpr, group, local_in = {}, {}, {}, {}
local i = 0
for g = 1, G do
  for j = 1, P.groups[g] do
    i = i + 1; group[i] = g; local_in[i] = j + (g > 1 and 1 or 0)   -- input 1 of a later switch: the trunk
  end
end
for i = 1, N do
  yats.cbrframe{"app" .. i, delta = 1, len = 8 * (P.mtu - 40), start_time = P.start[i], connid = i,
                out = {"tcps" .. i, "data"}}
  tcps[i] = yats.tcpipsend{"tcps" .. i, buf = 4 * P.rcv_wnd, mtu = P.mtu, ts = P.ts, fretr = P.fretr,
                bitrate = P.rate, proctim = P.send_proc, tick = P.tick, rtomin = P.rtomin, rec = "tcpr" .. i,
                out = {{"aal5s" .. i, "data"}, {"app" .. i, "ctrl"}}}
  yats.aal5send{"aal5s" .. i, vci = i, buf = 1000, header = P.llc,
                out = {{"ls" .. i, "line"}, {"tcps" .. i, "start"}}}
  yats.line{"ls" .. i, delay = P.access[i], out = {"f" .. group[i], "in" .. local_in[i]}}
  yats.line{"ld" .. i, delay = P.sink[i], out = {"aal5r" .. i, "aal5rec"}}
  yats.aal5rec{"aal5r" .. i, out = {"tcpr" .. i, "data"}}
  tcpr[i] = yats.tcpiprec{"tcpr" .. i, wnd = P.rcv_wnd, proctim = PROC, iackdel = PROC, ackdel = P.ackdel,
                out = {{"sink" .. i, "sink"}, {"aal5a" .. i, "data"}}}
  yats.sink{"sink" .. i}
  yats.aal5send{"aal5a" .. i, vci = i, buf = 1000, header = P.llc,
                out = {{"la" .. i, "line"}, {"ctrlsink", "sink"}}}
  yats.line{"la" .. i, delay = P.sink[i], out = {"rmux", "in" .. i}}
  yats.line{"lar" .. i, delay = P.access[i], out = {"aal5ra" .. i, "aal5rec"}}
  yats.aal5rec{"aal5ra" .. i, out = {"tcps" .. i, "ack"}}
end
yats.sink{"ctrlsink"}
-- forward: the port of switch g towards switch g + 1, the trunk, and at the last switch the destinations
local fwd = {}
for g = 1, G do
  local ninp = P.groups[g] + (g > 1 and 1 or 0)
  if P.policy == "epd" then
    fwd[g] = yats.muxEPD{"f" .. g, ninp = ninp, buff = P.buffer - 1, thresh = P.epd_threshold, maxvci = N + 1,
                         out = {"tf" .. g, "line"}}
  else
    fwd[g] = yats.mux{"f" .. g, ninp = ninp, buff = P.buffer - 1, maxvci = N + 1, out = {"tf" .. g, "line"}}
  end
  yats.line{"tf" .. g, delay = P.trunks[g], out = g < G and {"f" .. (g + 1), "in1"} or {"dmxd", "demux"}}
end
local dout = {}
for i = 1, N do dout[i] = {"ld" .. i, "line"} end
local dmxd = yats.demux{"dmxd", maxvci = N, nout = N, out = dout}
for i = 1, N do dmxd:signal{i, i, i} end
-- backward: the last switch's port towards the one before, then a demultiplexer per switch g (its group's
-- sources, and the trunk further back)
yats.mux{"rmux", ninp = N, buff = P.buffer - 1, maxvci = N + 1, out = {"tr" .. G, "line"}}
local dmx = {}
for g = G, 1, -1 do
  yats.line{"tr" .. g, delay = P.trunks[g], out = {"dr" .. g, "demux"}}
  local outs = {}
  for i = 1, N do if group[i] == g then outs[#outs + 1] = {"lar" .. i, "line"} end end
  if g > 1 then outs[#outs + 1] = {"tr" .. (g - 1), "line"} end
  dmx[g] = yats.demux{"dr" .. g, maxvci = N, nout = #outs, out = outs}
end
for g = G, 1, -1 do
  local k = 0
  for i = 1, N do
    if group[i] == g then k = k + 1; dmx[g]:signal{i, i, k} end
  end
  for i = 1, N do
    if group[i] < g then dmx[g]:signal{i, i, k + 1} end
  end
end

yats.sim:connect()
for i = 1, N do tcps[i].ssthresh = P.ssthresh end
yats._sim:_run(P.warm, P.warm + 1)
local at_warm = {}
for i = 1, N do at_warm[i] = tcpr[i].user_bytes end
yats._sim:_run(P.slots - P.warm, P.slots - P.warm + 1)

print(string.format("yats simulated_s %.9f", P.slots * SLOT))
for i = 1, N do
  local s = tcps[i]
  print(string.format("yats source %d %d %d %d %d", i, tcpr[i].user_bytes - at_warm[i], s.xmitted_segments,
                      s.rexmitted_segments, s.rexmto))
end
print(string.format("yats bottleneck_dropped_cells %d", fwd[G]:getLossTot()))
"""
"""The network of the module docstring; its output lines are :func:`atmtcp.validation.yats.parse`'s, the bytes
per source counted after the warm-up (``run.warmup_s``)."""
