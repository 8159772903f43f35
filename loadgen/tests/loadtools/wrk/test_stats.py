"""wrk's statistics of a latency histogram: the percentile's rank in x86-64 long double,
the percentile, the mean and the sample standard deviation, as wrk's stats.c computes them."""

from __future__ import annotations

import statistics

import pytest

from httplab.loadtools.wrk.stats import (histogram_mean, histogram_percentile, histogram_stdev,
                                         wrk_percentile_rank)
from httplab.model import LatencyHistogram

FOUR = LatencyHistogram(((10, 1), (20, 1), (30, 1), (40, 1)))


# (p, samples, wrk's rank), checked against wrk's own C expression compiled on x86-64
RANKS = [
    (50.0, 4, 3),  # round(2 + 0.5) takes the half away from zero: not Python's round()
    (25.0, 4, 2),
    (74.9, 4, 3),
    (0.0, 5, 1),
    (100.0, 7, 8),  # past the last sample: wrk 4.x returns 0 there
    (99.0, 100, 100),
    (99.9, 1000, 1000),
    (99.99, 100000, 99991),  # exact rationals give 99990: wrk rounds to a double first
]


@pytest.mark.parametrize(("p", "samples", "rank"), RANKS)
def test_percentile_rank_is_wrks(p: float, samples: int, rank: int) -> None:
    assert wrk_percentile_rank(p, samples) == rank


# (histogram, p, value)
PERCENTILES = [
    (FOUR, 0.0, 10),
    (FOUR, 25.0, 20),
    (FOUR, 50.0, 30),  # the rank of the median of four is 3
    (FOUR, 75.0, 40),
    (FOUR, 100.0, 40),  # wrk itself would say 0: the maximum is the useful answer
    (LatencyHistogram(((1, 99990), (2, 10))), 99.99, 2),
    (LatencyHistogram(((7, 3),)), 99.9, 7),
    (LatencyHistogram(()), 50.0, None),
]


@pytest.mark.parametrize(("histogram", "p", "value"), PERCENTILES)
def test_percentile_follows_wrks_rule(histogram: LatencyHistogram, p: float, value: int | None) -> None:
    assert histogram_percentile(histogram, p) == value


# (histogram, mean, stdev): wrk's stats_mean, and stats_stdev with n - 1
MOMENTS = [
    (FOUR, 25.0, statistics.stdev([10, 20, 30, 40])),
    (LatencyHistogram(((5, 2), (9, 6))), 8.0, statistics.stdev([5, 5] + [9] * 6)),
    (LatencyHistogram(((7, 1),)), 7.0, 0.0),
    (LatencyHistogram(()), None, None),
]


@pytest.mark.parametrize(("histogram", "mean", "stdev"), MOMENTS)
def test_mean_and_stdev_are_wrks(histogram: LatencyHistogram, mean, stdev) -> None:
    assert histogram_mean(histogram) == pytest.approx(mean)
    assert histogram_stdev(histogram) == pytest.approx(stdev)
