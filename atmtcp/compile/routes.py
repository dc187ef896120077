"""Routes: fewest hops (breadth-first, ties broken by link order), and the bottleneck they share.

Both paths route alike: each direction of each link is an output port at its sending node, named
``"node->neighbour"``; hosts do not forward.
"""
from __future__ import annotations

from collections import Counter, deque

from .. import model as m
from .core import cell_time_ns


class Router:
    """Fewest-hop routes of one network (hosts do not forward).

    A breadth-first search from a host with a single link reaches every node through that
    link's other end, so the search tree from that node serves every host attached to it:
    it is computed once per node, and N sources cost O(N) instead of O(N^2). A host with
    several links gets its own search, as before; both give the same routes.
    """

    def __init__(self, network: m.Network):
        self.neighbours: dict[str, list[str]] = {}
        for link in network.links:
            self.neighbours.setdefault(link.a, []).append(link.b)
            self.neighbours.setdefault(link.b, []).append(link.a)
        self.hosts = set(network.hosts)
        self.trees: dict[str, dict[str, str | None]] = {}

    def _tree(self, root: str) -> dict[str, str | None]:
        previous = {root: None}
        queue = deque([root])
        while queue:
            node = queue.popleft()
            if node in self.hosts and node != root:
                continue
            for nxt in self.neighbours.get(node, []):
                if nxt not in previous:
                    previous[nxt] = node
                    queue.append(nxt)
        return previous

    def route(self, src: str, dst: str) -> list[str]:
        """Port names from ``src`` to ``dst`` along a fewest-hop path."""
        first = self.neighbours.get(src, [])
        if src in self.hosts and len(first) == 1 and dst != src:
            hop = first[0]
            if hop == dst:
                return [f"{src}->{dst}"]
            if hop in self.hosts:
                previous = {}
            else:
                if hop not in self.trees:
                    self.trees[hop] = self._tree(hop)
                previous = self.trees[hop]
            if dst not in previous:
                raise m.ModelError("Connection", "dst", dst, f"a host reachable from {src!r}")
            nodes = [dst]
            while nodes[-1] != hop:
                nodes.append(previous[nodes[-1]])
            nodes.append(src)
        else:
            previous = self._tree(src)
            if dst not in previous:
                raise m.ModelError("Connection", "dst", dst, f"a host reachable from {src!r}")
            nodes = [dst]
            while previous[nodes[-1]] is not None:
                nodes.append(previous[nodes[-1]])
        nodes.reverse()
        return [f"{a}->{b}" for a, b in zip(nodes[:-1], nodes[1:])]


def bottleneck_port(specs: dict, data_routes: list[list[str]]) -> str:
    """The port the connections share: the one crossed by the most data routes, the slowest
    of those on a tie (by ``specs[port].rate_bps``), then the first in route order. Efficiency is
    measured on it (goyal1998 3.2 measures C on "a 155.52 Mbps link", the link the sources share)."""
    crossings = Counter(p for r in data_routes for p in dict.fromkeys(r))
    order = {p: i for i, p in enumerate(dict.fromkeys(p for r in data_routes for p in r))}
    return max(order, key=lambda p: (crossings[p], cell_time_ns(specs[p].rate_bps), -order[p]))
