"""ewa section 2 (Figs. 2-12): TCP through an IP-ATM access point, AAP-1, under Drop-Tail, Drop-from-Front
and RED; the motivation for EWA. :mod:`.scenario` (the runs), :mod:`.experiments` (the targets and our
studies of them), :mod:`.regime` (the loss regime of a run), :mod:`.claims`, :mod:`.figures`."""
