"""goyal1997: the slides of ATM Forum contribution 97-0423 (SACK and UBR+ over LAN, WAN and
satellite), rendered in goyal1998's notebook. See :mod:`atmtcp.papers`."""
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from .experiments import EXPERIMENTS  # noqa: F401
from ...claims import Finding
from ..goyal1998.scenario import TCP_SETTINGS  # noqa: F401  (the package interface: goyal1998's, see there)

ORDER = 2
NOTEBOOK = "goyal1998"
TABLE_TARGETS = ["goyal1997.satellite_efficiency", "goyal1997.satellite_fairness", "goyal1997.satellite_study"]
FIGURE_TARGETS = ["goyal1997.cwnd_integer_stall", "goyal1997.satellite_study"]

FINDINGS = [
    Finding("goyal1997", "FRR hurts in WANs and satellite networks.", "slide \"Summary\"",
            ("frr_hurts_wan_efficiency", "satellite_frr_hurts")),
    Finding("goyal1997", "SACK helps significantly", "slide \"Simulation Results on Satellites\"",
            ("satellite_sack_helps",)),
    Finding("goyal1997", "Unless implemented properly, congestion window may get stuck at 256 kB", "slide \"Summary\"",
            ("integer_cwnd_stalls_at_mss_squared",)),
]
"""goyal1997's principal findings (the slides' summary, in their words), each decided by the claims
named (:mod:`atmtcp.fidelity`; FRR in WANs is goyal1998's claim on the same tables)."""
