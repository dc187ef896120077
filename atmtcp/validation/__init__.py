"""Triangulation (issue 37): an independent simulator beside every disagreement it can express.

When our number differs from a paper's, whose number is wrong? This package runs the same scenario in a
second, widely used simulator, built from the very :class:`atmtcp.model.Run` our kernel simulates, so that
every cross-checked number has three values: the paper's, ours and the peer's.

- :mod:`.ns3`: the translation of a run into ns-3's parameters (pure Python, tested without ns-3);
- :mod:`.ns3_run`: running it in ns-3 (the optional extra ``validate``);
- :mod:`.yats`: the translation of a run into a YATS (Luayats) script, running it and reading it back (the
  user builds YATS: ``benchmarks/yats/build.sh``);
- :mod:`.scenarios`: the cross-checked scenarios, each reduced to the same variables on both sides;
- :mod:`.experiments`: the targets ``validation.<scenario>`` (``make validate``, not ``make reproduce``);
- :mod:`.compare`: the table (paper, ours, peer, verdict with its tolerance) and the figures.

A package of its own inside ``atmtcp`` (not a top-level ``validation/``): its scenarios import the papers'
scenario modules and the registry finds its targets like the atlas's, and it is installed and tested with
the package; the peer itself stays an optional dependency.
"""
