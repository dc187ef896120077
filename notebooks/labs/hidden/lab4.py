"""lab4's hidden checks (the lecturer's: `atmtcp labs build` leaves them out of the student version)."""
from atmtcp.labs.checks import hidden

HIDDEN = hidden("lab4")
