"""What ewa's claims of sections 2-4 share: the paper's numbers (``data/reference/ewa.csv``), and a claim of
ewa read on the distribution over our seeds (:class:`atmtcp.claims.Claim`'s ``seed_share``; the paper's
sentences are about its one run, :mod:`atmtcp.papers.ewa.shared.measures`)."""
from __future__ import annotations

from ....claims import SEED_SHARE, Claim
from ....reference import load_reference


def paper_by_phase(target: str, *metrics: str) -> dict[str, float]:
    """The paper's value of ``target`` per phase, from its rows of one of ``metrics`` (a later row's value
    replaces an earlier one's of the same phase)."""
    ref = load_reference("ewa")
    rows = ref[(ref.target == target) & ref.metric.isin(metrics)]
    return dict(zip(rows.phase, rows.value.astype(float)))


def claim(name: str, quote: str, targets: tuple[str, ...], check, seed_share: float | None = SEED_SHARE) -> Claim:
    """ewa's sentence ``quote`` as a check on ``targets``, read on the mean over the seeds and on each seed
    alone (passing with the mean and ``seed_share`` of the seeds; None: the check counts the seeds itself)."""
    return Claim(name, "ewa", quote, targets, check, seed_share)
