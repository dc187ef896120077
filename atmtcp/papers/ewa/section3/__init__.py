"""ewa section 3 (Fig. 13, eq. 3.2): EWA's feedback function, the linear one against the logarithmic one,
and the equilibrium its loop reaches. :mod:`.scenario` and :mod:`.experiments` (Fig. 13's runs, on section
4's network), :mod:`.equilibrium` (eq. 3.2 solved numerically), :mod:`.claims`, :mod:`.figures`."""
