"""lab5's hidden checks (the lecturer's: `atmtcp labs build` leaves them out of the student version)."""
from atmtcp.labs.checks import hidden, seeds_where

HIDDEN = hidden("lab5", q3=(seeds_where("epd_not_below_espd_fairness", "fairness", "epd", "espd"),))
