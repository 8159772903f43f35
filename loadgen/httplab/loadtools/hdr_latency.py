"""Latency as an HdrHistogram (the hdrhistogram package): whole microseconds, 3
significant digits, so every value is kept within 0.1 % of itself (exactly below 2048 µs),
from 0 up to an hour; stored as the library's standard encoded form (a compressed,
base64 string). Percentiles are the library's; several histograms pool with its add.
Pure: values in, histograms and text out."""

from __future__ import annotations

from typing import Iterable

from hdrh.histogram import HdrHistogram

SIGNIFICANT_DIGITS = 3
LOWEST_US = 1
HIGHEST_US = 3_600_000_000  # an hour: a latency or a stall longer than that is an error
RELATIVE_PRECISION = 10.0 ** -SIGNIFICANT_DIGITS  # each value within 0.1 % of itself


def empty_histogram() -> HdrHistogram:
    return HdrHistogram(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)


def histogram_of(counts: Iterable[tuple[int, int]]) -> HdrHistogram:
    """(value in µs, count) pairs recorded; ValueError for a value out of the range."""
    histogram = empty_histogram()
    for value_us, count in counts:
        if not histogram.record_value(value_us, count):
            raise ValueError(f"a latency of {value_us} µs is outside 0..{HIGHEST_US} µs")
    return histogram


def merged(histograms: Iterable[HdrHistogram]) -> HdrHistogram:
    """Every histogram's counts added into one (the library's add)."""
    pooled = empty_histogram()
    for histogram in histograms:
        pooled.add(histogram)
    return pooled


def encoded(histogram: HdrHistogram) -> str:
    return histogram.encode().decode("ascii")


def decoded(text: str) -> HdrHistogram:
    """ValueError when text is not an encoded histogram of this module's precision."""
    try:
        histogram = HdrHistogram.decode(text)
    except Exception as error:  # the library raises its own kinds, zlib's and base64's
        raise ValueError(f"not an encoded HdrHistogram: {error}") from error
    if histogram.significant_figures != SIGNIFICANT_DIGITS:
        raise ValueError(f"an HdrHistogram of {histogram.significant_figures} significant "
                         f"digits, not {SIGNIFICANT_DIGITS}")
    return histogram


def percentile_us(histogram: HdrHistogram, percentile: float) -> int | None:
    """The library's value at a percentile (the highest value its bucket stands for);
    None without values."""
    if histogram.get_total_count() == 0:
        return None
    return histogram.get_value_at_percentile(percentile)


def recorded_counts(histogram: HdrHistogram) -> tuple[tuple[int, int], ...]:
    """(the lowest value a bucket stands for, its count) for every bucket holding any."""
    return tuple((histogram.get_value_from_index(index), histogram.get_count_at_index(index))
                 for index in range(histogram.counts_len)
                 if histogram.get_count_at_index(index))


def value_at_rank(histogram: HdrHistogram, rank: int) -> int | None:
    """The highest value the bucket holding the rank-th smallest value stands for (rank
    from 1; past the last, the largest bucket's); None without values. For a percentile
    by another rule of rank than the library's (wrk's: loadtools/wrk/stats.py)."""
    seen = value = 0
    for value, count in recorded_counts(histogram):
        seen += count
        if seen >= rank:
            break
    return histogram.get_highest_equivalent_value(value) if seen else None
