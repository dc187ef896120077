"""ewa section 2's loss regime, read from one run's samples: how many packets each connection loses
per overflow of AAP-1's buffer, and how often it times out.

ewa 2 explains its Drop-Tail figures by multiple losses: "if multiple losses occur from a single
connection within one RTT, the connection may be forced into the slow-start phase". Reno repairs one
loss per window by fast retransmit; two or more usually end in a timeout. So the regime of a run is
visible in the drops per connection per overflow episode:

- an *overflow episode* is a burst of drops at AAP-1: drops in consecutive 5 ms samples, a gap of
  less than :data:`EPISODE_GAP_S` joining two bursts into one (our choice: a few round trips of
  11-21 ms, so that the drops one overflow causes, and the losses of the fast retransmissions it
  triggers, stay in one episode);
- a connection *hit* by an episode lost at least one packet in it; the regime's numbers are the mean
  drops per hit, and the share of hits with two or more drops.
"""
from __future__ import annotations

import numpy as np

EPISODE_GAP_S = 0.05
"""Drops less than 50 ms apart (about 2.5 round trips with a full buffer) belong to one episode."""


def overflow_episodes(times: np.ndarray, dropped_total: np.ndarray, gap_s: float = EPISODE_GAP_S) -> list[tuple[int, int]]:
    """The episodes as (first, last) sample indices whose drop count rose (``dropped_total`` is the
    queue's cumulative count at each sample)."""
    rising = np.flatnonzero(np.diff(dropped_total, prepend=dropped_total[:1]) > 0)
    episodes: list[tuple[int, int]] = []
    for i in rising:
        if episodes and times[i] - times[episodes[-1][1]] < gap_s:
            episodes[-1] = (episodes[-1][0], int(i))
        else:
            episodes.append((int(i), int(i)))
    return episodes


def drops_per_episode(dropped: np.ndarray, episodes: list[tuple[int, int]]) -> np.ndarray:
    """Packets each connection lost in each episode (episode x connection), from each connection's
    cumulative drops at each sample (sample x connection)."""
    before = np.vstack([dropped[:1], dropped])   # before[k]: the count at sample k - 1 (sample 0 starts the count)
    return np.array([before[last + 1] - before[first] for first, last in episodes],
                    dtype=np.int64).reshape(len(episodes), dropped.shape[1])


def regime(times: np.ndarray, dropped_total: np.ndarray, dropped: np.ndarray, timeouts: np.ndarray,
           after_s: float) -> dict[str, float]:
    """The regime of one run after ``after_s`` (the first slow start excluded): episodes, hits, mean
    drops per hit, share of hits with two or more drops, and timeouts per connection."""
    start = int(np.searchsorted(times, after_s))
    episodes = overflow_episodes(times[start:], dropped_total[start:])
    per = drops_per_episode(dropped[start:], episodes)
    hits = per[per > 0]
    return {
        "episodes": float(len(episodes)),
        "hits": float(hits.size),
        "drops_per_hit": float(hits.mean()) if hits.size else np.nan,
        "multiple_drop_share": float((hits >= 2).mean()) if hits.size else np.nan,
        "timeouts_per_connection": float((timeouts[-1] - timeouts[start]).mean()),
    }
