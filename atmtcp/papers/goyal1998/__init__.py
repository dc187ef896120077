"""goyal1998: Goyal, Jain, Kalyanaraman, Fahmy, Vandalore, "Improving the performance of TCP
over the ATM-UBR service" (Computer Communications 21, 1998). See :mod:`atmtcp.papers`.

Its experiments, claims, targets and findings (:mod:`.interface`) load on first use: goyal1998's
N-source configuration (:mod:`.scenario`) is also the default scenario of ``atmtcp run`` and ``atmtcp
bench`` (:mod:`atmtcp.default_run`), whose start should not import the experiments (xarray, pandas)."""
from .scenario import TCP_SETTINGS  # noqa: F401  (the package interface)

ORDER = 1
NOTEBOOK = "goyal1998"
LAZY = ("EXPERIMENTS", "CLAIMS", "TABLE_TARGETS", "FIGURE_TARGETS", "FINDINGS", "TCP_BEHAVIOUR")
"""The names of the package interface that :mod:`.interface` holds."""


def __getattr__(name: str):
    """The names of :data:`LAZY`, from :mod:`.interface` (imported at the first such look-up)."""
    if name in LAZY:
        from . import interface
        return getattr(interface, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
