"""goyal1997's figure: CWND growth under the increase rules of the slides."""
from __future__ import annotations

import matplotlib.pyplot as plt
import xarray as xr

from ...figures import trace_samples

INCREASE_LABELS = {
    "float": "floating point (MSS*MSS/CWND)",
    "bsd": "4.4BSD (+ MSS/8)",
    "integer": "integer MSS*MSS/CWND",
    "integer_every_n": "Solution 1: N*MSS*MSS/CWND every N ACKs",
}


def stall_figure(ds: xr.Dataset):
    """goyal1997: CWND with integer arithmetic, Solution 1 and floating point."""
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for rule in ds.increase.values:
        cwnd = trace_samples(ds.cwnd.sel(increase=rule))
        ax.step(cwnd.time, cwnd / 1024, where="post", lw=1, label=INCREASE_LABELS.get(str(rule), str(rule)))
    ax.axhline(262144 / 1024, color="k", lw=0.6, ls=":", label="MSS*MSS = 256 KB")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("CWND (KB)")
    ax.set_title("CWND growth in congestion avoidance (MSS 512, one WAN connection)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
