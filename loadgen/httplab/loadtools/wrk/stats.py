"""wrk's statistics of a latency histogram, as its stats.c computes them: the percentile
(with the rank in x86-64 long double arithmetic), the mean and the sample standard
deviation. Pure."""

from __future__ import annotations

import math
from fractions import Fraction

from httplab.model import Latency, LatencyHistogram

# The percentiles done.lua writes (its LATENCY_KEYS), and so those of a latency computed here.
WRK_PERCENTILES = (50.0, 75.0, 90.0, 99.0, 99.9)


def histogram_percentile(histogram: LatencyHistogram, p: float) -> int | None:
    """wrk's stats_percentile: the smallest value whose cumulative count reaches the
    rank. None without samples; the maximum past the last rank (p = 100, where wrk 4.x
    itself returns 0)."""
    if not histogram.buckets:
        return None
    rank, cumulative = wrk_percentile_rank(p, histogram.total), 0
    for value, count in histogram.buckets:
        cumulative += count
        if cumulative >= rank:
            return value
    return histogram.max


def exact_histogram_latency(histogram: LatencyHistogram,
                            percentiles: tuple[float, ...] = WRK_PERCENTILES) -> Latency:
    """The latency an exact histogram gives, as wrk computes each figure; unknown (None)
    without samples."""
    if histogram.total == 0:
        return Latency(mean_us=None, stdev_us=None, max_us=None, min_us=None)
    return Latency(mean_us=histogram_mean(histogram), stdev_us=histogram_stdev(histogram),
                   max_us=float(histogram.max), min_us=float(histogram.min),
                   percentiles_us=tuple((p, float(histogram_percentile(histogram, p)))
                                        for p in percentiles))


def histogram_mean(histogram: LatencyHistogram) -> float | None:
    total = histogram.total
    if total == 0:
        return None
    return float(Fraction(sum(value * count for value, count in histogram.buckets), total))


def histogram_stdev(histogram: LatencyHistogram) -> float | None:
    """wrk's stats_stdev: the sample standard deviation (n - 1), 0 below two samples;
    computed exactly, then rounded once."""
    total = histogram.total
    if total == 0:
        return None
    if total < 2:
        return 0.0
    linear = sum(value * count for value, count in histogram.buckets)
    square = sum(value * value * count for value, count in histogram.buckets)
    return math.sqrt(Fraction(square * total - linear * linear, total * (total - 1)))


def wrk_percentile_rank(p: float, total: int) -> int:
    """stats_percentile's rank (p >= 0), round((p / 100.0) * count + 0.5), as wrk computes it on
    x86-64: in long double (64-bit significand), converted to double for C's round(),
    which takes halves away from zero. Exact rationals would differ just below a whole
    rank: e.g. p = 99.99 (a double a little under 99.99) with 100000 samples."""
    scaled = _to_significand(_to_significand(Fraction(p) / 100, 64) * total, 64)
    as_double = _to_significand(_to_significand(scaled + Fraction(1, 2), 64), 53)
    return math.floor(as_double + Fraction(1, 2))  # p >= 0: the value is positive


def _to_significand(value: Fraction, bits: int) -> Fraction:
    """value rounded to the nearest binary float with a `bits`-bit significand (ties to
    even), as the FPU rounds each step."""
    if value == 0:
        return value
    magnitude = abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    scale = Fraction(2) ** (bits - 1 - exponent)
    return Fraction(round(value * scale)) / scale
