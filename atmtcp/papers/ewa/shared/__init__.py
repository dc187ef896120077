"""What ewa's sections share: :mod:`.scenario` (Fig. 1's network, the TCP, the AAL5 VC, section 2's ten
connections that section 4 repeats), :mod:`.measures` (L1's utilization, the phases, the seeds) and
:mod:`.figures` (the figures every section draws alike)."""
