"""goyal1997: the slides of ATM Forum contribution 97-0423 (SACK and UBR+ over LAN, WAN and
satellite), rendered in goyal1998's notebook. See :mod:`atmtcp.papers`."""
from .claims import CLAIMS  # noqa: F401  (the package interface, see atmtcp.papers)
from .experiments import EXPERIMENTS  # noqa: F401

ORDER = 2
NOTEBOOK = "goyal1998"
TABLE_TARGETS = ["goyal1997.satellite_efficiency", "goyal1997.satellite_fairness"]
FIGURE_TARGETS = ["goyal1997.cwnd_integer_stall"]
