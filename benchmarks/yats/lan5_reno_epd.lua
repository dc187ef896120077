--[[
lan5_reno_epd.lua -- YATS (Luayats) script for the atmtcp benchmark scenario
"goyal1998 5-source LAN, TCP Reno, EPD", to time YATS side by side with atmtcp.

Run (binary and Lua modules installed by build.sh into PREFIX):
    /usr/bin/time -v PREFIX/bin/luayats-bin lan5_reno_epd.lua [simtime_s] [seed]
The Lua modules are found in $LUAYATSHOME, else in PREFIX/share/luayats next to
the binary (PREFIX/bin/../share/luayats).

Model (goyal1998 Fig. 3, N = 5):
  S_i: cbrframe (greedy application, back-pressured via start/stop)
       -> tcpipsend (Reno: slow start, congestion avoidance, fast retransmit
          and fast recovery; MSS 512 bytes, 20+20 bytes TCP/IP header, no
          timestamp option) -> aal5send (VCI i, 8 bytes LLC/SNAP + 8 bytes AAL5
          trailer: 552 + 16 = 568 bytes -> 12 cells per segment, one cell per slot)
       -> line (S_i->SW1) -> SW1 port to SW2: muxEPD (buffer 1000 cells, EPD
          threshold 800 cells) -> line (SW1->SW2) -> demux (SW2) -> line (SW2->D_i)
       -> aal5rec -> tcpiprec (window 65535 bytes) -> sink.
  ACKs: tcpiprec -> aal5send (2 cells per ACK) -> line (D_i->SW2) -> mux (SW2
       port to SW1, shared by the 5 ACK VCs) -> line (SW2->SW1) -> demux (SW1)
       -> line (SW1->S_i) -> aal5rec -> tcpipsend.
  One slot = one cell time at 155.52 Mbit/s (53*8/155.52e6 s = 2.726 us); every
  link and switch port carries one cell per slot. All sources start at slot 1.
  Simulated time: 10 s (3667925 slots).

Differences from the scenario as atmtcp runs it (all that YATS imposes or that
could not be matched exactly):
  1. Link delay 5 us is rounded to 2 slots = 5.45 us (YATS is slotted; a line
     needs an integer delay >= 1 slot). Propagation RTT 32.7 us instead of 30 us.
  2. Host processing delays cannot be 0 in YATS tcpipsend/tcpiprec (an event
     must be scheduled >= 1 slot ahead): 1 slot (2.7 us, up to +10% jitter,
     truncated to 1 slot) per segment at the sender, per segment at the
     receiver and before each ACK. atmtcp has zero processing delay.
  3. Switch ports: YATS muxEPD is a slotted output queue with random order
     among the cells arriving in the same slot (atmtcp "slotted" contention is
     similar but not identical). Its queue holds buff + 1 cells (the cell in
     service counts, as in YATS mux); buff = 999 gives 1000 cells in all.
     The EPD test is "queue length >= 800 when the first cell of a frame
     arrives"; after an overflow the rest of the frame, including its last
     cell, is dropped (atmtcp may differ in whether the EOM cell is kept).
     SW2's output ports to D_i and SW1's ports to S_i are modelled by a plain
     demux (no queue, no extra cell time): they never congest.
  4. TCP: YATS tcpipsend is 4.4BSD-like Reno with YATS' own details: RTO from
     a tick-based timer (tick 0.1 s, RTO min 0.2 s = 2 ticks, max 64 s, initial
     3 s, as atmtcp), but RTT is timed on one segment at a time in ticks of a
     free-running 0.1 s clock with random phase, and YATS computes the RTO as
     (SA>>3) + SD with SD scaled by 4, so a 1-tick RTT gives an RTO of 4-6
     ticks (0.4-0.6 s) where 4.4BSD/atmtcp give about 2-3 ticks; the timer
     expires exactly rto slots after it is set (not on a tick boundary);
     ssthresh after loss is
     max(2, min(wnd,cwnd)/2/MSS) segments; fast recovery per YATS (cwnd =
     ssthresh + 3*MSS, +MSS per further dup ACK, cwnd = ssthresh on the first
     new ACK); congestion avoidance increases cwnd by MSS*MSS/cwnd (floating
     point, rounded down to whole segments). Initial ssthresh: YATS sets
     wnd/2 at connection set-up; this script resets it to 65535 bytes (atmtcp:
     the receiver window) before the run.
  5. Receiver: YATS tcpiprec acknowledges when the application has read a
     segment and the window opened by >= 1 MSS (one ACK per segment here, like
     atmtcp without delayed ACKs); its delayed-ACK timer (200 ms) is superseded
     by these immediate ACKs. The application (sink) reads at once.
  6. Send path: tcpipsend hands segments to aal5send's frame queue (1000
     frames, never full) with a watermark of 2 segments in its own output
     queue (YATS OQWM); the host interface sends one cell per slot.
  7. Sequence numbers are 32-bit ints in YATS; 10 s at 155 Mbit/s stays far
     below the limit.
  8. Goodput below is the bytes the receiving application got (tcpiprec
     user_bytes, in-order payload) over the simulated time; "efficiency" is
     total goodput / (155.52e6 * 48/53 * 512/576) = the payload rate of the
     link when every cell is used (12 cells per 512-byte segment).
]]

-------------------------------------------------------------------------------
-- Prelude: find the Luayats Lua modules, run without the GUI launcher.
-------------------------------------------------------------------------------
local function dirname(p) return (string.gsub(p, "/[^/]*$", "")) end
local bindir = (arg and arg[-1] and string.find(arg[-1], "/")) and dirname(arg[-1]) or "."
local yhome = os.getenv("LUAYATSHOME") or (bindir .. "/../share/luayats")
package.path = yhome .. "/?.lua;" .. package.path
local _getenv = os.getenv
os.getenv = function(k)
  if k == "LUAYATSHOME" then return _getenv(k) or yhome end
  return _getenv(k)
end
LUAYATSRC = yhome .. "/luayatsrc"              -- preferences (see yats/config.lua)
-- Modules the core loads only for the GUI / interactive shell / RSTP:
package.loaded["iuplua"] = package.loaded["iuplua"] or {
  GetGlobal = function() return "X11" end,
  Message = function(t, m) io.stderr:write(t, ": ", m, "\n") end,
}
package.loaded["readline"] = package.loaded["readline"] or {}
package.loaded["bit"] = package.loaded["bit"] or {}

require "yats.core"
require "yats.stdlib"
require "yats.misc"
require "yats.muxdmx"
require "yats.tcpip"

-------------------------------------------------------------------------------
-- Parameters
-------------------------------------------------------------------------------
local N         = 5
local RATE      = 155.52e6                    -- bit/s, all links
local SLOT      = 53 * 8 / RATE               -- one cell time
local SIMTIME   = tonumber(arg and arg[1]) or 10.0   -- s
local SEED      = tonumber(arg and arg[2]) or 1
local LINKDELAY = 5e-6                        -- s
local MSS       = 512
local MTU       = MSS + 40                    -- IP packet, no TCP options
local LLC       = 8                           -- LLC/SNAP bytes (+ 8 AAL5 trailer in aal5send)
local RCVWND    = 65535
local BUFFER    = 1000                        -- cells, including the cell in service
local EPDTHRESH = 800                         -- cells
local TICK      = 0.1                         -- s, TCP timer granularity
local RTOMIN    = 0.2                         -- s (2 ticks)

yats.sim:setSlotLength(SLOT)
yats.sim:setRand(SEED)
local function slots(t) return math.floor(t / SLOT + 0.5) end
local DELAY = math.max(1, slots(LINKDELAY))   -- 2 slots
local PROC  = 1.5 * SLOT                      -- -> 1 slot after truncation
local NSLOTS = slots(SIMTIME)

-------------------------------------------------------------------------------
-- Network
-------------------------------------------------------------------------------
local tcps, tcpr, epd = {}, {}, nil
for i = 1, N do
  yats.cbrframe{"app" .. i, delta = 1, len = 8 * MSS, start_time = 1, connid = i,
                out = {"tcps" .. i, "data"}}
  tcps[i] = yats.tcpipsend{"tcps" .. i, buf = 4 * RCVWND, mtu = MTU, ts = false,
                fretr = true, bitrate = RATE, proctim = PROC, tick = TICK,
                rtomin = RTOMIN, rec = "tcpr" .. i,
                out = {{"aal5s" .. i, "data"}, {"app" .. i, "ctrl"}}}
  yats.aal5send{"aal5s" .. i, vci = i, buf = 1000, header = LLC,
                out = {{"ls" .. i, "line"}, {"tcps" .. i, "start"}}}
  yats.line{"ls" .. i, delay = DELAY, out = {"sw1", "in" .. i}}
  -- receiver side
  yats.line{"ld" .. i, delay = DELAY, out = {"aal5r" .. i, "aal5rec"}}
  yats.aal5rec{"aal5r" .. i, out = {"tcpr" .. i, "data"}}
  tcpr[i] = yats.tcpiprec{"tcpr" .. i, wnd = RCVWND, proctim = PROC, iackdel = PROC,
                out = {{"sink" .. i, "sink"}, {"aal5a" .. i, "data"}}}
  yats.sink{"sink" .. i}
  -- ACK path
  yats.aal5send{"aal5a" .. i, vci = i, buf = 1000, header = LLC,
                out = {{"la" .. i, "line"}, {"ctrlsink", "sink"}}}
  yats.line{"la" .. i, delay = DELAY, out = {"sw2r", "in" .. i}}
  yats.line{"lar" .. i, delay = DELAY, out = {"aal5ra" .. i, "aal5rec"}}
  yats.aal5rec{"aal5ra" .. i, out = {"tcps" .. i, "ack"}}
end
yats.sink{"ctrlsink"}

-- SW1 output port towards SW2: the bottleneck, EPD
epd = yats.muxEPD{"sw1", ninp = N, buff = BUFFER - 1, thresh = EPDTHRESH, maxvci = N + 1,
                  out = {"trunk", "line"}}
yats.line{"trunk", delay = DELAY, out = {"dmx2", "demux"}}
local dout = {}
for i = 1, N do dout[i] = {"ld" .. i, "line"} end
local dmx2 = yats.demux{"dmx2", maxvci = N, nout = N, out = dout}

-- reverse direction: SW2 output port towards SW1 (ACKs), SW1 demux to the sources
local sw2r = yats.mux{"sw2r", ninp = N, buff = BUFFER - 1, maxvci = N + 1,
                      out = {"trunkr", "line"}}
yats.line{"trunkr", delay = DELAY, out = {"dmx1", "demux"}}
local aout = {}
for i = 1, N do aout[i] = {"lar" .. i, "line"} end
local dmx1 = yats.demux{"dmx1", maxvci = N, nout = N, out = aout}

for i = 1, N do
  dmx2:signal{i, i, i}
  dmx1:signal{i, i, i}
end

-------------------------------------------------------------------------------
-- Run
-------------------------------------------------------------------------------
yats.sim:connect()
for i = 1, N do tcps[i].ssthresh = RCVWND end  -- atmtcp: initial ssthresh = rcv window

local t0 = os.clock()
yats._sim:_run(NSLOTS, NSLOTS + 1)             -- C++ kernel loop (no GUI coroutine)
local cpu = os.clock() - t0

-------------------------------------------------------------------------------
-- Results
-------------------------------------------------------------------------------
local simt = NSLOTS * SLOT
local total = 0
print(string.format("# YATS goyal1998 LAN, %d Reno sources, EPD %d/%d cells, %.3f s simulated (%d slots of %.4g s), seed %d",
                    N, EPDTHRESH, BUFFER, simt, NSLOTS, SLOT, SEED))
print(string.format("%-4s %14s %12s %10s %8s %8s %8s", "src", "delivered_B", "goodput_Mb/s",
                    "sent_segs", "rexmit", "rto", "cwnd"))
for i = 1, N do
  local s, r = tcps[i], tcpr[i]
  local b = r.user_bytes
  total = total + b
  print(string.format("%-4d %14d %12.3f %10d %8d %8d %8d", i, b, b * 8 / simt / 1e6,
                      s.xmitted_segments, s.rexmitted_segments, s.rexmto, s.cwnd))
end
local maxgood = RATE * 48 / 53 * MSS / (12 * 48)
print(string.format("total %13d %12.3f", total, total * 8 / simt / 1e6))
print(string.format("efficiency %.4f (of %.3f Mb/s payload capacity)", total * 8 / simt / maxgood, maxgood / 1e6))
local sq = 0
for i = 1, N do sq = sq + tcpr[i].user_bytes ^ 2 end
print(string.format("fairness %.4f", total ^ 2 / (N * sq)))
print(string.format("sw1 cells dropped %d (EPD + overflow)", epd:getLossTot()))
print(string.format("kernel cpu %.2f s", cpu))
