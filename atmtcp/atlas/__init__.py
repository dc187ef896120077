"""The atlas (issue 28): every drop policy of the four papers, under five TCPs, in each paper's networks,
and each paper's principal conclusion tested in the others' networks. Not a paper: its targets
(``atlas.*``) are outside ``make reproduce``; ``make atlas`` builds them.

- :mod:`.grid`: the scenarios, policies and TCPs, and how a grid cell becomes a run (the papers' builders);
- :mod:`.measures`: a run reduced to efficiency, fairness, loss and timeouts per connection;
- :mod:`.experiments`: one experiment per scenario, and ``atlas.grid`` stacking them;
- :mod:`.conclusions`: the papers' conclusions as tests on paired seeds;
- :mod:`.figures`: the heat maps, the conclusions table and the recommendation.
"""
