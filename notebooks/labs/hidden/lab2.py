"""lab2's hidden checks (the lecturer's: `atmtcp labs build` leaves them out of the student version)."""
from atmtcp.labs.checks import hidden, near_mean

HIDDEN = hidden("lab2", q2=(near_mean("z08_efficiency", "efficiency", "Z = 0.8"),))
