"""ewa section 4 (Figs. 14-39): EWA's evaluation, sections 4.1-4.6, with EWA at AAP-1 (and 4.6 with RED).
:mod:`.scenario` (the scenarios and their runs), :mod:`.experiments`, :mod:`.claims` (with the conclusion's
comparison against section 2), :mod:`.figures`."""
