"""h2load's log of requests (--log-file) reduced to what a table reads, and read back:
<stem>.h2load-latency.json. Pure: text and dicts in, records out.

The log has one line per finished request ("start µs since epoch <TAB> status <TAB> µs
until the end of the answer"; status -1 for a stream that failed), about 25 MB for a
million requests. Its record keeps each status's count, when the last request ended, the
answered requests' exact mean, stdev (wrk's formulas), min and max, and their latencies
as an HdrHistogram (loadtools/hdr_latency.py), from which the percentiles are read, by
wrk's rule of rank, so that an h2load cell and a wrk cell in one table rank alike."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from httplab.loadtools.hdr_latency import decoded, encoded, histogram_of, value_at_rank
from httplab.loadtools.wrk.stats import WRK_PERCENTILES, exact_histogram_latency, wrk_percentile_rank
from httplab.model import Latency, LatencyHistogram

FORMAT = 1  # of the record this module writes and reads
FAILED_STREAM = -1  # the log's status of a request that got no answer
_EXACT_FIGURES = ("mean_us", "stdev_us", "min_us", "max_us")


@dataclass(frozen=True)
class H2loadLatency:
    statuses: Mapping[int, int]  # each status's count; FAILED_STREAM: no answer came
    answered: int  # the requests an answer came for: those in the histogram
    latency: Latency  # theirs: exact mean, stdev, min and max; percentiles from the histogram
    ended_at_us: int | None  # when the last request ended (µs since the epoch)


def reduced_log(log: str, source: str) -> dict[str, Any]:
    """The record of a log's requests, as the module says; ValueError naming the source's
    line that is not a log line."""
    statuses, latencies, ended_at_us = _read_log(log, source)
    exact = exact_histogram_latency(LatencyHistogram(tuple(sorted(latencies.items()))), ())
    return {"format": FORMAT, "statuses": {str(status): count for status, count
                                           in sorted(statuses.items())},
            "answered": sum(latencies.values()), "ended_at_us": ended_at_us,
            **{name: getattr(exact, name) for name in _EXACT_FIGURES},
            "histogram": encoded(histogram_of(latencies.items()))}


def latency_from_log(log: str, source: str) -> H2loadLatency:
    """A log of requests read as its record would be (the form committed runs kept)."""
    return latency_from_record(reduced_log(log, source), source)


def latency_from_record(data: Any, source: str) -> H2loadLatency:
    """ValueError naming the source when data is not a record of a known format, or when
    its histogram does not hold its answered requests."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{source}: not an h2load latency record of format {FORMAT}")
    try:
        histogram = decoded(data["histogram"])
        answered = int(data["answered"])
        statuses = {int(status): int(count) for status, count in data["statuses"].items()}
        exact = {name: data[name] for name in _EXACT_FIGURES}
        ended_at_us = data["ended_at_us"]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ValueError(f"{source}: h2load latency record without {error}") from error
    if histogram.get_total_count() != answered:
        raise ValueError(f"{source}: its histogram holds {histogram.get_total_count()} "
                         f"requests, where it says {answered} were answered")
    percentiles = tuple((p, float(value_at_rank(histogram, wrk_percentile_rank(p, answered))))
                        for p in WRK_PERCENTILES) if answered else ()
    return H2loadLatency(statuses, answered, Latency(**exact, percentiles_us=percentiles),
                         ended_at_us)


def _read_log(log: str, source: str) -> tuple[Counter[int], Counter[int], int | None]:
    """Each status's count, each answered request's latency's count, and when the last
    request ended (µs since the epoch; None without requests)."""
    statuses: Counter[int] = Counter()
    latencies: Counter[int] = Counter()
    ended_at_us = None
    for number, line in enumerate(log.splitlines(), start=1):
        if not line.strip():
            continue
        start_us, status, latency_us = _log_line(line, number, source)
        statuses[status] += 1
        if status != FAILED_STREAM:
            latencies[latency_us] += 1
        ended_at_us = max(ended_at_us or 0, start_us + latency_us)
    return statuses, latencies, ended_at_us


def _log_line(line: str, number: int, source: str) -> tuple[int, int, int]:
    fields = line.split("\t")
    if len(fields) < 3 or not all(re.fullmatch(r"-?\d+", field) for field in fields[:3]):
        raise ValueError(f"{source}:{number}: not an h2load log line: {line!r}")
    start_us, status, latency_us = (int(field) for field in fields[:3])
    if latency_us < 0:
        raise ValueError(f"{source}:{number}: a negative latency: {line!r}")
    return start_us, status, latency_us
