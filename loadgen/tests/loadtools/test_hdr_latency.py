"""Latency as an HdrHistogram of 3 significant digits: its percentiles against the exact
ones of synthetic per-request latencies, within the precision docs/method.md states; two
load generators' histograms merged against the histogram of their pooled requests; the
encoded form read back whole."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from httplab.loadtools.hdr_latency import (HIGHEST_US, RELATIVE_PRECISION, decoded, encoded,
                                           histogram_of, merged, percentile_us,
                                           recorded_counts, value_at_rank)

PERCENTILES = (50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 100.0)


def requests(seed: int, count: int) -> list[int]:
    """Per-request latencies in µs: a log-normal body around 2 ms, a tail to seconds."""
    rng = random.Random(seed)
    body = [round(rng.lognormvariate(math.log(2_000), 0.8)) for _ in range(count)]
    return body + [rng.randrange(50_000, 3_000_000) for _ in range(count // 200)]


def counted(values: list[int]) -> list[tuple[int, int]]:
    return sorted(Counter(values).items())


def exact_percentile(values: list[int], percentile: float) -> int:
    """The value at the library's rank, round(p / 100 * n), at least 1, among the sorted."""
    ordered = sorted(values)
    return ordered[max(int(percentile * len(ordered) / 100 + 0.5), 1) - 1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_percentile_is_the_exact_one_or_within_the_precision_above(seed):
    values = requests(seed, 20_000)
    histogram = histogram_of(counted(values))
    for percentile in PERCENTILES:
        exact = exact_percentile(values, percentile)
        found = percentile_us(histogram, percentile)
        assert exact <= found <= exact * (1 + RELATIVE_PRECISION), (percentile, exact, found)


def test_below_2048_us_every_value_is_kept_exactly():
    values = list(range(0, 2048)) * 3
    assert recorded_counts(histogram_of(counted(values))) == tuple((v, 3) for v in range(2048))


def test_wrks_rank_finds_the_bucket_of_that_rank():
    values = requests(4, 5_000)
    histogram, ordered = histogram_of(counted(values)), sorted(values)
    for rank in (1, 2500, 4990, len(values)):
        exact = ordered[rank - 1]
        assert exact <= value_at_rank(histogram, rank) <= exact * (1 + RELATIVE_PRECISION)
    assert value_at_rank(histogram_of([]), 1) is None


def test_two_generators_merged_equal_the_histogram_of_their_pooled_requests():
    first, second = requests(5, 8_000), requests(6, 3_000)
    pooled = histogram_of(counted(first + second))
    together = merged([histogram_of(counted(first)), histogram_of(counted(second))])
    assert recorded_counts(together) == recorded_counts(pooled)
    assert together.get_total_count() == len(first) + len(second)
    for percentile in PERCENTILES:
        assert percentile_us(together, percentile) == percentile_us(pooled, percentile)
    # and not because any two histograms compare equal:
    assert recorded_counts(together) != recorded_counts(histogram_of(counted(first)))


def test_the_encoded_form_reads_back_whole():
    histogram = histogram_of(counted(requests(7, 2_000)))
    text = encoded(histogram)
    assert text.startswith("HISTF") and len(text) < 4_000
    assert recorded_counts(decoded(text)) == recorded_counts(histogram)


@pytest.mark.parametrize("text", ["", "HISTFAAAA", "not base64 at all"])
def test_what_is_not_an_encoded_histogram_is_refused(text):
    with pytest.raises(ValueError):
        decoded(text)


def test_a_value_outside_the_range_is_refused():
    with pytest.raises(ValueError, match="outside"):
        histogram_of([(HIGHEST_US * 2, 1)])
    assert percentile_us(histogram_of([]), 99) is None
