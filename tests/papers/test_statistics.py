"""atmtcp.statistics: the interval beside every compared number, against numpy and a naive bootstrap."""
from __future__ import annotations

import numpy as np
import pytest

from atmtcp import statistics as st


def test_one_run_interval_is_the_percentiles_of_the_seeds():
    """A paper value from one run: the 5th and 95th percentiles of our per-seed values."""
    values = np.array([0.3, 0.9, 0.5, 0.7, 0.1, 0.8, 0.2, 0.6, 0.4, 1.0])
    low, high = st.interval(values)
    assert (low, high) == pytest.approx(tuple(np.percentile(values, [5, 95])))
    assert values.min() < low < high < values.max()


def test_failed_runs_are_left_out_and_one_value_has_no_interval():
    assert st.interval([0.5, np.nan, 0.7]) == pytest.approx(st.interval([0.5, 0.7]))
    assert all(np.isnan(st.interval([0.5])))
    summary = st.describe([0.5, np.nan], seed0=0.5)
    assert summary["seeds"] == 1 and summary["reproduced"] == 0.5 and np.isnan(summary["low"])


def test_mean_of_k_runs_is_a_bootstrap_narrower_than_one_run():
    """The mean of 10 runs varies about sqrt(10) times less than one run; the bootstrap interval of that
    mean agrees with a naive resampling written here, and repeats exactly."""
    values = np.random.default_rng(7).normal(100.0, 10.0, 40)
    one = np.subtract(*reversed(st.interval(values)))
    low, high = st.interval(values, runs=10)
    assert 0.2 < (high - low) / one < 0.5
    assert (low, high) == st.interval(values, runs=10)
    rng = np.random.default_rng(st.BOOTSTRAP_SEED)
    pool = values.mean() + (values - values.mean()) * np.sqrt(40 / 39)
    naive = [pool[rng.integers(0, values.size, 10)].mean() for _ in range(st.BOOTSTRAP_DRAWS)]
    # the kernel draws all indices at once; the naive loop draws them row by row: same stream, same numbers
    assert (low, high) == pytest.approx(tuple(np.percentile(naive, [5, 95])))


def test_bootstrap_is_not_narrowed_by_few_seeds():
    """With two seeds the resampled standard deviation still centres on the sample's (the spread is
    corrected by sqrt(n / (n - 1)) before resampling)."""
    values = np.array([10.0, 14.0])
    draws_sd = st.describe(values, runs=2, statistic="sd")
    assert draws_sd["low"] < values.std(ddof=1) <= draws_sd["high"]


def test_standard_deviation_of_k_runs():
    """cheon prints the standard deviation of its 10 (6) runs: the interval is of that statistic."""
    values = np.random.default_rng(3).normal(50.0, 5.0, 30)
    summary = st.describe(values, runs=6, statistic="sd")
    assert summary["reproduced"] == pytest.approx(values.std(ddof=1))
    assert 0 < summary["low"] < values.std(ddof=1) < summary["high"]
    with pytest.raises(ValueError, match="statistic"):
        st.interval(values, runs=2, statistic="max")


def test_improvement_interval_holds_the_ratio_of_means():
    """An improvement in percent over a baseline column, from independent runs of each."""
    base = np.random.default_rng(1).normal(100.0, 5.0, 10)
    better = np.random.default_rng(2).normal(120.0, 5.0, 10)
    summary = st.describe_improvement(better, base, runs=10)
    assert summary["reproduced"] == pytest.approx(100 * (better.mean() / base.mean() - 1))
    assert summary["low"] < summary["reproduced"] < summary["high"]


def test_inside():
    assert st.inside(0.5, 0.4, 0.6) is True
    assert st.inside(0.7, 0.4, 0.6) is False
    assert st.inside(0.5, float("nan"), 0.6) is None
