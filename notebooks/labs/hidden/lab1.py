"""lab1's hidden checks (the lecturer's: `atmtcp labs build` leaves them out of the student version)."""
from atmtcp.labs.checks import hidden, seeds_where

HIDDEN = hidden("lab1", q3=(seeds_where("tail_not_below_epd", "efficiency", "tail", "epd"),))
