"""One measured run spread over several load generators, merged into one WrkRun. Pure.

Counts add up: requests, bytes, every error count, threads and connections. Latency
comes from the generators' latency histograms summed, never from averaging their
percentiles: percentiles, and with exact histograms min, mean, stdev and max too. With
a quantile-grid histogram among them, min, max, mean and stdev are pooled from the
generators' own exact wrk figures instead (the grid would bias them), and the merged
percentiles carry the grid's rank error. Without a histogram from every generator the
latency is unknown, and the run's notes say why.

Requests/sec is the total over the common window, the time all generators were running:
from the latest start to the earliest end. The start skew (latest start - earliest
start) is kept. Without every generator's end time, the window is the longest run and
the skew is unknown.
"""

from __future__ import annotations

import math

from httplab.loadtools.wrk.stats import (WRK_PERCENTILES, exact_histogram_latency,
                                         histogram_percentile)
from httplab.model import Latency, LatencyHistogram, SocketErrors, WrkRun

MERGED_PERCENTILES = WRK_PERCENTILES
UNKNOWN_LATENCY = Latency(mean_us=None, stdev_us=None, max_us=None, min_us=None)


def merge_generator_runs(runs: list[WrkRun]) -> WrkRun:
    """The generators' runs (each as its wrk measured it, in index order) as one run,
    which keeps them in `generators`. ValueError for no runs."""
    if not runs:
        raise ValueError("no generator runs to merge")
    window_s, ended_at_s, skew_s, window_note = common_window(runs)
    latency, histogram, latency_note = merged_latency(runs)
    requests, bytes_read = sum(r.requests for r in runs), sum(r.bytes_read for r in runs)
    return WrkRun(
        duration_s=window_s, requests=requests, bytes_read=bytes_read,
        requests_per_sec=requests / window_s if window_s > 0 else 0.0,
        transfer_per_sec=bytes_read / window_s if window_s > 0 else 0.0,
        latency=latency, errors=summed_errors(runs),
        non_2xx_3xx=sum(r.non_2xx_3xx for r in runs),
        threads=_sum_of_known(r.threads for r in runs),
        connections=_sum_of_known(r.connections for r in runs),
        url=_common(r.url for r in runs), thread_requests_per_sec=None,
        latency_histogram=histogram,
        latency_histogram_exact=None if histogram is None else histogram.exact,
        latency_samples=None if histogram is None else histogram.total,
        ended_at_s=ended_at_s, generators=tuple(runs), start_skew_s=skew_s,
        notes=tuple(note for note in (window_note, latency_note) if note))


def describe_generator(index: int, run: WrkRun) -> str:
    """'generator 2 (ssh://lab@b)', or 'generator 2' where its engine is unknown."""
    return f"generator {index}" + (f" ({run.engine})" if run.engine else "")


def common_window(runs: list[WrkRun]) -> tuple[float, float | None, float | None, str | None]:
    """(window in s, its end as Unix time, start skew in s, a note when it is not the
    common window)."""
    unknown = [describe_generator(i, r) for i, r in enumerate(runs, 1) if r.ended_at_s is None]
    longest = max(run.duration_s for run in runs)
    if unknown:
        return longest, None, None, (
            f"{_listed(unknown)} wrote no end time: Requests/sec is over the longest run "
            f"({longest:.2f} s) and the generators' start skew is unknown")
    starts = [run.started_at_s for run in runs]
    ended_at_s = min(run.ended_at_s for run in runs)
    window_s, skew_s = ended_at_s - max(starts), max(starts) - min(starts)
    if window_s <= 0:
        return longest, None, skew_s, (
            f"the generators' runs did not overlap (they started {skew_s:.2f} s apart): "
            f"Requests/sec is over the longest run ({longest:.2f} s)")
    return window_s, ended_at_s, skew_s, None


def merged_latency(runs: list[WrkRun]) -> tuple[Latency, LatencyHistogram | None, str | None]:
    """(latency, the summed histogram, a note when the latency is unknown)."""
    missing = [describe_generator(i, r) for i, r in enumerate(runs, 1)
               if r.latency_histogram is None]
    if missing:
        return UNKNOWN_LATENCY, None, (
            f"latency unknown: {_listed(missing)} wrote no latency histogram (an older "
            f"done.lua, or only wrk's printed report), and percentiles cannot be averaged")
    histogram = LatencyHistogram.merged(run.latency_histogram for run in runs)
    if histogram.total == 0:
        return UNKNOWN_LATENCY, histogram, None
    if histogram.exact:
        return exact_histogram_latency(histogram, MERGED_PERCENTILES), histogram, None
    percentiles = tuple((p, float(histogram_percentile(histogram, p)))
                        for p in MERGED_PERCENTILES)
    return pooled_latency(runs, percentiles), histogram, None


def pooled_latency(runs: list[WrkRun], percentiles: tuple[tuple[float, float], ...]) -> Latency:
    """Min, max, mean and stdev from each generator's exact wrk figures, weighted by its
    sample count: the same values the summed exact histograms would give."""
    parts = [(run.latency_samples, run.latency) for run in runs
             if run.latency_samples and run.latency.mean_us is not None]
    total = sum(n for n, _ in parts)
    mean = sum(n * latency.mean_us for n, latency in parts) / total
    spread = sum((n - 1) * (latency.stdev_us or 0.0) ** 2 + n * (latency.mean_us - mean) ** 2
                 for n, latency in parts)
    return Latency(mean_us=mean, stdev_us=math.sqrt(spread / (total - 1)) if total > 1 else 0.0,
                   max_us=max(latency.max_us for _, latency in parts),
                   min_us=min(latency.min_us for _, latency in parts),
                   percentiles_us=percentiles)


def summed_errors(runs: list[WrkRun]) -> SocketErrors:
    return SocketErrors(*(sum(getattr(run.errors, kind) for run in runs)
                          for kind in ("connect", "read", "write", "timeout")))


def _sum_of_known(values) -> int | None:
    values = list(values)
    return None if any(value is None for value in values) else sum(values)


def _common(values) -> str | None:
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else None


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
