"""Autograded labs for a class (``notebooks/labs/``, issue 40): each lab runs one comparison of a paper
(:mod:`.catalog`) with every source's congestion window and the bottleneck's queue drawn (:mod:`.runs`),
asks questions whose answers the student reads off their own runs, and checks them (:mod:`.grader`,
:mod:`.checks`). :mod:`.build` makes the student and solution versions (``atmtcp labs build``) and grades
submissions with the lecturer's hidden checks (``atmtcp labs grade``). The lecturer's guide:
``docs/lecturers-guide.md``.
"""
from .catalog import LABS, lab
from .grader import Grader

__all__ = ["LABS", "Grader", "lab"]
