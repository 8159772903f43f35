"""The stall meter's JSON (what __main__.py writes) -> the model's HostStalls: its
percentiles from the histogram, its maximum, the time covered by stalls and its own cost.
Pure: a dict in, a record out."""

from __future__ import annotations

from typing import Any

from httplab.model import HostStalls

FORMATS = (1,)  # of the meter's JSON that this reader knows


class StallReportError(ValueError):
    """A JSON the stall meter did not write, or in a format this reader does not know."""


def percentile_us(buckets: list[list[int]], percentile: float) -> float | None:
    """The lateness below which `percentile` % of wake-ups fell: the top of the bucket that
    holds that rank (so never below the truth). None without samples."""
    total = sum(count for _, _, count in buckets)
    if total == 0:
        return None
    rank, seen = percentile / 100 * total, 0
    for _, high, count in buckets:
        seen += count
        if seen >= rank:
            return float(high)
    return float(buckets[-1][1])


def host_stalls(data: dict[str, Any]) -> HostStalls:
    """StallReportError when data is not the meter's JSON."""
    if data.get("format") not in FORMATS:
        raise StallReportError(f"not a stall meter's JSON of a known format: "
                               f"format {data.get('format')!r}")
    try:
        buckets = data["histogram"]["buckets"]
        max_us = float(data["max_us"])
        return HostStalls(
            interval_us=data["interval_us"], threshold_us=data["threshold_us"],
            samples=data["samples"], p99_us=_capped(percentile_us(buckets, 99), max_us),
            p999_us=_capped(percentile_us(buckets, 99.9), max_us), max_us=max_us,
            stalled_s=data["stalled_us"] / 1e6,
            covered_s=data["ended"]["monotonic_s"] - data["started"]["monotonic_s"],
            meter_cpu_s=data["loop_cpu_s"], place=data["place"],
            priority=data.get("priority", "normal (not recorded)"))
    except (KeyError, TypeError, ValueError) as error:
        raise StallReportError(f"stall meter's JSON without {error}") from error


def _capped(value: float | None, max_us: float) -> float | None:
    """A bucket's top may lie above the largest value seen."""
    return None if value is None else min(value, max_us)
