"""Running an :class:`atmtcp.validation.ns3.Ns3Dumbbell` in ns-3 (the optional extra ``validate``:
``pip install 'atmtcp[validate]'``, the ``ns3`` wheel with its cppyy bindings).

The topology, the applications and the counters are a few dozen lines of C++ (:data:`CPP`), compiled
once per process by cppyy: ns-3's trace sources then call C++ functions, not Python, so a run costs
what ns-3 costs. What is counted, per source:

- ``goodput_bytes``: bytes its receiving application got in order (``PacketSink``), as our
  ``goodput_bps`` times the duration;
- ``sent_bytes`` every ``sample_s``: the TCP payload of its data packets that finished leaving the
  bottleneck device (``PhyTxEnd``), retransmissions included, as our ``sampled_measured_bytes`` at L1;
- ``drops``: its packets the bottleneck's queue disc dropped (``Drop``);
- ``timeouts`` and ``fast_retransmits``: its socket's entries into the congestion states ``CA_LOSS``
  (a retransmission timeout; a second timeout within the same loss episode is not an entry, ours counts
  it) and ``CA_RECOVERY``.

The application writes into its socket only cwnd plus :data:`atmtcp.validation.ns3.SEND_AHEAD_SEGMENTS`
beyond what is acknowledged, and stops writing at its close time, so that a closed connection sends no more
than ours (ewa 2's closes at 10 and 15 s). It sends no FIN: ns-3 3.44 aborts on an assertion
(``m_congState != CA_DISORDER``, tcp-socket-base.cc) when a closed socket's timer fires in disorder.
"""
from __future__ import annotations

import functools
import importlib.util

import numpy as np

from .ns3 import SEND_AHEAD_SEGMENTS, Ns3Dumbbell

CPP = r"""
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/ppp-header.h"
#include "ns3/applications-module.h"
#include "ns3/traffic-control-module.h"

namespace atmtcp_ns3 {
using namespace ns3;

struct Flow { Ptr<Socket> socket; uint64_t written = 0; uint32_t cwnd = 0; bool open = false; uint32_t slack = 0;
              uint32_t mss = 0; };
static std::vector<Flow> flows;
static std::map<uint32_t, int> byAddress;
std::vector<double> sent, drops, timeouts, fastRetransmits, samples, sampleTimes, queueSamples, goodput;
static Ptr<QueueDisc> bottleneckQueue;
static double sampleEvery = 0.25;

static int FlowOf(Ipv4Address a) { auto it = byAddress.find(a.Get()); return it == byAddress.end() ? -1 : it->second; }

static void TopUp(int i) {
  Flow &f = flows[i];
  if (!f.open) return;
  Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(f.socket);
  uint64_t acked = tcp->GetTxBuffer()->HeadSequence().GetValue() - 1;
  uint64_t target = acked + f.cwnd + f.slack;
  while (f.written < target) {  // whole segments only: a short write would go out as a short segment
    uint64_t room = tcp->GetTxAvailable();
    uint64_t want = (target - f.written + f.mss - 1) / f.mss * f.mss;
    uint32_t chunk = (uint32_t) (std::min(want, room) / f.mss * f.mss);
    if (chunk == 0) break;
    int n = f.socket->Send(Create<Packet>(chunk));
    if (n <= 0) break;
    f.written += n;
  }
}
static void OnSpace(int i, Ptr<Socket>, uint32_t) { TopUp(i); }
static void OnCwnd(int i, uint32_t, uint32_t now) { flows[i].cwnd = now; TopUp(i); }
std::vector<double> stateLog;  // (time, flow, state) of every congestion-state change, for inspection
static void OnState(int i, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
  stateLog.push_back(Simulator::Now().GetSeconds()); stateLog.push_back(i); stateLog.push_back(now);
  if (now == TcpSocketState::CA_LOSS) timeouts[i] += 1;
  if (now == TcpSocketState::CA_RECOVERY) fastRetransmits[i] += 1;
}
static void OnConnected(int i, Ptr<Socket>) { flows[i].open = true; TopUp(i); }
static void OnFailed(int, Ptr<Socket>) {}
static void Open(int i, Ptr<Node> node, Address remote) {
  Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
  flows[i].socket = s;
  s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, i));
  s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnState, i));
  s->SetConnectCallback(MakeBoundCallback(&OnConnected, i), MakeBoundCallback(&OnFailed, i));
  s->SetSendCallback(MakeBoundCallback(&OnSpace, i));
  s->Bind();
  s->Connect(remote);
}
// The application closes: it writes nothing more, and TCP delivers what it has (ours: "gives TCP no new data").
// (ns-3 3.44's Close() asserts when a timeout finds the socket in CA_DISORDER after the FIN.)
static void Close(int i) { flows[i].open = false; }
static void OnTxEnd(Ptr<const Packet> p) {
  Ptr<Packet> c = p->Copy();
  PppHeader ppp; c->RemoveHeader(ppp);
  Ipv4Header ip; c->RemoveHeader(ip);
  int i = FlowOf(ip.GetSource());
  if (i < 0) return;
  TcpHeader tcp; c->PeekHeader(tcp);
  sent[i] += ip.GetPayloadSize() - tcp.GetSerializedSize();
}
static void OnDrop(Ptr<const QueueDiscItem> item) {
  Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
  if (!ip) return;
  int i = FlowOf(ip->GetHeader().GetSource());
  if (i >= 0) drops[i] += 1;
}
static void Sample() {
  sampleTimes.push_back(Simulator::Now().GetSeconds());
  for (double b : sent) samples.push_back(b);
  queueSamples.push_back(bottleneckQueue->GetNPackets());
  Simulator::Schedule(Seconds(sampleEvery), &Sample);
}

static NetDeviceContainer Join(Ptr<Node> a, Ptr<Node> b, double rate, double delay, const std::string& queue) {
  PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate((uint64_t) std::llround(rate))));
  p2p.SetDeviceAttribute("Mtu", UintegerValue(65535));  // no IP fragmentation: ours carries whole segments
  p2p.SetChannelAttribute("Delay", TimeValue(Seconds(delay)));
  p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(queue));
  return p2p.Install(a, b);
}

static void Unqueue(Ptr<NetDevice> device) {
  Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
  if (tc->GetRootQueueDiscOnDevice(device)) tc->DeleteRootQueueDiscOnDevice(device);
}

void Run(const std::vector<double>& accessRate, const std::vector<double>& accessDelay,
         const std::vector<double>& egressRate, const std::vector<double>& egressDelay,
         double trunkRate, double trunkDelay, const std::string& queueKind, const std::string& maxSize,
         double minTh, double maxTh, double maxP, double weight, unsigned meanPacket,
         const std::vector<double>& starts, const std::vector<double>& stops, double duration,
         unsigned rngRun, double sampleS, unsigned slack, unsigned mss,
         const std::vector<std::string>& names, const std::vector<std::string>& values) {
  const int n = accessRate.size();
  RngSeedManager::SetSeed(1);
  RngSeedManager::SetRun(rngRun);
  for (size_t k = 0; k < names.size(); ++k) Config::SetDefault(names[k], StringValue(values[k]));
  flows.assign(n, Flow());
  byAddress.clear();
  sent.assign(n, 0); drops.assign(n, 0); timeouts.assign(n, 0); fastRetransmits.assign(n, 0); goodput.assign(n, 0);
  samples.clear(); sampleTimes.clear(); queueSamples.clear(); stateLog.clear();
  sampleEvery = sampleS;

  NodeContainer sources, sinks, routers;
  sources.Create(n); sinks.Create(n); routers.Create(2);
  InternetStackHelper stack;
  stack.InstallAll();
  NetDeviceContainer trunk = Join(routers.Get(0), routers.Get(1), trunkRate, trunkDelay, "1p");
  TrafficControlHelper tch;
  if (queueKind == "red") {
    tch.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", StringValue(maxSize), "MinTh", DoubleValue(minTh),
                         "MaxTh", DoubleValue(maxTh), "LInterm", DoubleValue(1.0 / maxP), "QW", DoubleValue(weight),
                         "MeanPktSize", UintegerValue(meanPacket), "Gentle", BooleanValue(false),
                         "Wait", BooleanValue(false), "UseHardDrop", BooleanValue(true),
                         "LinkBandwidth", DataRateValue(DataRate((uint64_t) std::llround(trunkRate))),
                         "LinkDelay", TimeValue(Seconds(trunkDelay)));
  } else {
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue(maxSize));
  }
  QueueDiscContainer qdiscs = tch.Install(trunk.Get(0));
  bottleneckQueue = qdiscs.Get(0);
  // RED's draws from a fixed stream of run rngRun: ns-3 numbers the streams it assigns itself across every
  // simulation of the process, so that RED's draws would otherwise depend on the runs before this one
  Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(bottleneckQueue);
  if (red) red->AssignStreams(0);
  bottleneckQueue->TraceConnectWithoutContext("Drop", MakeCallback(&OnDrop));
  trunk.Get(0)->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&OnTxEnd));

  Ipv4AddressHelper addresses;
  addresses.SetBase("10.0.0.0", "255.255.255.252");
  addresses.Assign(trunk);
  DynamicCast<PointToPointNetDevice>(trunk.Get(1))->GetQueue()->SetMaxSize(QueueSize("100000p"));
  Unqueue(trunk.Get(1));
  std::vector<Ipv4Address> sinkAddress(n);
  for (int i = 0; i < n; ++i) {
    NetDeviceContainer a = Join(sources.Get(i), routers.Get(0), accessRate[i], accessDelay[i], "100000p");
    addresses.NewNetwork();
    Ipv4InterfaceContainer ia = addresses.Assign(a);
    byAddress[ia.GetAddress(0).Get()] = i;
    NetDeviceContainer e = Join(routers.Get(1), sinks.Get(i), egressRate[i], egressDelay[i], "100000p");
    addresses.NewNetwork();
    Ipv4InterfaceContainer ie = addresses.Assign(e);
    sinkAddress[i] = ie.GetAddress(1);
    for (uint32_t k = 0; k < 2; ++k) { Unqueue(a.Get(k)); Unqueue(e.Get(k)); }
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();

  std::vector<Ptr<PacketSink>> apps(n);
  for (int i = 0; i < n; ++i) {
    flows[i].slack = slack;
    flows[i].mss = mss;
    uint16_t port = 5000 + i;
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer c = sink.Install(sinks.Get(i));
    c.Start(Seconds(0));
    apps[i] = DynamicCast<PacketSink>(c.Get(0));
    Simulator::Schedule(Seconds(starts[i]), &Open, i, sources.Get(i), Address(InetSocketAddress(sinkAddress[i], port)));
    if (stops[i] >= 0) Simulator::Schedule(Seconds(stops[i]), &Close, i);
  }
  Simulator::Schedule(Seconds(0), &Sample);
  Simulator::Stop(Seconds(duration) + NanoSeconds(1));  // the sample at the end time runs
  Simulator::Run();
  for (int i = 0; i < n; ++i) goodput[i] = apps[i]->GetTotalRx();
  flows.clear();
  bottleneckQueue = nullptr;
  Simulator::Destroy();
}
}  // namespace atmtcp_ns3
"""


def available() -> bool:
    """Whether the ``ns3`` package (the ``validate`` extra) is installed."""
    return importlib.util.find_spec("ns") is not None


@functools.cache
def _bindings():
    """ns-3 loaded and :data:`CPP` compiled (once per process)."""
    from ns import ns  # noqa: F401  (loads ns-3's libraries and headers into cppyy)
    import cppyy
    cppyy.cppdef(CPP)
    return cppyy.gbl.atmtcp_ns3, cppyy.gbl.std


def version() -> str:
    """The installed ns-3 wheel's version (``ns-3 3.44.post0``)."""
    from importlib.metadata import version as of
    return f"ns-3 {of('ns3')}"


def run(spec: Ns3Dumbbell) -> dict[str, np.ndarray]:
    """Simulate ``spec`` in ns-3: per source ``goodput_bytes``, ``drops``, ``timeouts``,
    ``fast_retransmits``; ``sample_time`` and ``sent_bytes`` (sample, source, cumulative), ``queue_packets``."""
    lib, std = _bindings()
    vec = lambda values: std.vector["double"]([float(v) for v in values])  # noqa: E731
    strings = lambda values: std.vector["std::string"]([str(v) for v in values])  # noqa: E731
    q = spec.queue
    defaults = spec.tcp.defaults()
    lib.Run(vec(a.rate_bps for a in spec.access), vec(a.delay_s for a in spec.access),
            vec(e.rate_bps for e in spec.egress), vec(e.delay_s for e in spec.egress),
            spec.bottleneck.rate_bps, spec.bottleneck.delay_s, q.kind, q.max_size(),
            q.min_th, q.max_th, q.max_p or 1.0, q.weight, q.mean_packet_bytes or spec.ip_packet_bytes,
            vec(spec.starts_s), vec(-1.0 if s is None else s for s in spec.stops_s), spec.duration_s,
            spec.rng_run, spec.sample_s, SEND_AHEAD_SEGMENTS * spec.tcp.segment_size, spec.tcp.segment_size,
            strings(defaults), strings(defaults.values()))
    n = spec.n
    times = np.array(list(lib.sampleTimes))
    return {
        "goodput_bytes": np.array(list(lib.goodput)), "drops": np.array(list(lib.drops)),
        "timeouts": np.array(list(lib.timeouts)), "fast_retransmits": np.array(list(lib.fastRetransmits)),
        "sample_time": times, "sent_bytes": np.array(list(lib.samples)).reshape(times.size, n),
        "queue_packets": np.array(list(lib.queueSamples)),
    }
