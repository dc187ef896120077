"""goyal1997's claims (the slides' statements), each a check on the reproduced datasets."""
from __future__ import annotations

from ... import words
from ...claims import SEED_SHARE, Claim, Points, Verdict, headline, values_text

def _integer_stall(d):
    ds = d["goyal1997.cwnd_integer_stall"]
    stalled = float(ds.final_cwnd.sel(increase="integer"))
    fixed = float(ds.final_cwnd.sel(increase="integer_every_n"))
    ok = 262144 <= stalled < 262144 + 512 and fixed > 1.1 * 262144
    return Verdict(ok, f"final CWND: integer {stalled:.0f} bytes, Solution 1 {fixed:.0f} bytes (MSS*MSS = 262144)")


def _satellite_sack_helps(d):
    ds = headline(d["goyal1997.satellite_efficiency"])
    mean = {t: float(ds.efficiency.sel(tcp=t).mean()) for t in ds.tcp.values}
    points = Points()
    points.at_least(mean["sack"], max(mean["reno"], mean["vanilla"]) + words.SIGNIFICANT.value)
    return points.verdict("mean satellite efficiency (\"significantly\": the interval above the better other): " + ", ".join(f"{k} {v:.3f}" for k, v in mean.items()))


def _satellite_frr_hurts(d):
    ds = headline(d["goyal1997.satellite_efficiency"])
    reno, vanilla = float(ds.efficiency.sel(tcp="reno").mean()), float(ds.efficiency.sel(tcp="vanilla").mean())
    points = Points()
    points.at_most(reno, vanilla)
    return points.verdict(values_text(reno=reno, vanilla=vanilla) + " (mean satellite efficiency)")


CLAIMS = [
    Claim("integer_cwnd_stalls_at_mss_squared", "goyal1997",
          "If CWND is large, MSS*MSS/CWND is zero and CWND does not change. CWND stays at 512*512 or 256 kB. "
          "Solution 1: Increment CWND after N acks.", ("goyal1997.cwnd_integer_stall",), _integer_stall,
          identity="with integer arithmetic, MSS*MSS/CWND is 0 for every CWND above MSS*MSS, so the window cannot "
          "pass 262,144 bytes whatever the simulation does: the check confirms the kernel does the arithmetic, "
          "not a behaviour of TCP over ATM"),
    Claim("satellite_sack_helps", "goyal1997", "SACK helps significantly (satellite).",
          ("goyal1997.satellite_efficiency",), _satellite_sack_helps, seed_share=SEED_SHARE),
    Claim("satellite_frr_hurts", "goyal1997", "FRR hurts badly (satellite).",
          ("goyal1997.satellite_efficiency",), _satellite_frr_hurts, seed_share=SEED_SHARE),
]

