"""Read the JSON summary oha 1.16 prints (`--output-format json`) for one fixed-rate run.
Takes text; does no I/O.

oha's words, as its source (printer.rs, result_data.rs) uses them:
- every request that got an HTTP answer is in statusCodeDistribution, 500s included; its
  latency is in the percentiles, with --latency-correction counted from when oha's ticker
  released it: the due time as tokio's millisecond timer wakes for it (later when oha's
  own threads are busy), so waits for a free connection count;
- every other request is in errorDistribution under its error's message: a refused
  connect ("Connection refused (os error 111)"), a reset ("connection error");
- "aborted due to deadline" there counts the connections' tasks oha cut off at the end,
  whether or not they carried a request (an idle one counts too): not a server's error;
- latencyPercentiles are in seconds, p10 to p99.99, each the value at index
  floor(p/100 * n) of the n sorted latencies; null when no request was answered;
- responseTimeHistogram has 11 equal-width bins from the fastest to the slowest answer,
  each keyed by its upper edge in seconds: a coarse shape, not the distribution.
Requests that were due but never sent appear nowhere: when oha cannot keep up, the due
requests queue inside it, those still queued at the end are dropped unsaid, and the
percentiles describe only the requests due early enough to be answered in time. Only an
achieved rate below the offered one shows it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from httplab.loadtools.json_fields import JsonFields, ToolJsonError
from httplab.model import Latency

DEADLINE_ERROR = "aborted due to deadline"
_PERCENTILE_KEY = re.compile(r"p(\d+(?:\.\d+)?)")
_MICROSECONDS_PER_SECOND = 1e6


class OhaJsonError(ToolJsonError):
    """An oha JSON summary that cannot be read; names the source."""


_FIELDS = JsonFields(OhaJsonError, "oha")


@dataclass(frozen=True)
class OhaReport:
    """One fixed-rate run as oha reports it; times in µs."""

    offered_rate_per_s: float  # from the request: oha does not print it
    duration_s: float  # oha's "total": from its start until its last worker ended
    status_codes: tuple[tuple[int, int], ...]  # (status, answers), ascending by status
    errors: tuple[tuple[str, int], ...]  # (oha's message, requests), ascending by message
    latency: Latency  # of every answered request; no stdev (oha prints none)
    histogram_us: tuple[tuple[float, int], ...]  # (bin's upper edge, answers), ascending

    @property
    def answered(self) -> int:
        return sum(count for _, count in self.status_codes)

    @property
    def succeeded(self) -> int:
        """Answered with 2xx or 3xx, as wrk and h2load count success."""
        return sum(count for status, count in self.status_codes if 200 <= status < 400)

    @property
    def non_2xx_3xx(self) -> int:
        return self.answered - self.succeeded

    @property
    def aborted_at_deadline(self) -> int:
        """The tasks oha cut off when the run ended, busy or idle: not a count of requests
        (1 to 21 of them in runs where every one of the 1500 due requests was answered)."""
        return dict(self.errors).get(DEADLINE_ERROR, 0)

    @property
    def failed(self) -> int:
        """Requests that got no answer for a reason of their own: refused, reset, timed out."""
        return sum(count for message, count in self.errors if message != DEADLINE_ERROR)

    @property
    def achieved_rate_per_s(self) -> float:
        """Answers a second over oha's whole run."""
        return self.answered / self.duration_s if self.duration_s > 0 else 0.0

    def percentile_us(self, p: float) -> float | None:
        return self.latency.percentile(p)


def parse_oha_json(text: str, offered_rate_per_s: float, source: str) -> OhaReport:
    """The run described by oha's JSON summary in `text`; `source` names it in errors."""
    document = _FIELDS.load_object(text, source)
    summary = _FIELDS.object(document, "summary", source)
    errors = _counts(document, "errorDistribution", source)
    latency = Latency(mean_us=_seconds_as_us(summary, "average", source), stdev_us=None,
                      max_us=_seconds_as_us(summary, "slowest", source),
                      min_us=_seconds_as_us(summary, "fastest", source),
                      percentiles_us=_percentiles(document, source))
    return OhaReport(offered_rate_per_s=offered_rate_per_s,
                     duration_s=_FIELDS.number(summary, "total", source, "summary."),
                     status_codes=_status_codes(document, source),
                     errors=tuple(sorted(errors)), latency=latency,
                     histogram_us=_histogram(document, source))




def _counts(document: dict[str, Any], key: str, source: str) -> list[tuple[str, int]]:
    mapping = _FIELDS.object(document, key, source)
    return [(name, _FIELDS.count(mapping, name, source, f"{key}.")) for name in mapping]


def _status_codes(document: dict[str, Any], source: str) -> tuple[tuple[int, int], ...]:
    counts = _counts(document, "statusCodeDistribution", source)
    for status, _ in counts:
        if not status.isdigit():
            raise OhaJsonError(source, f"'statusCodeDistribution' keys are HTTP statuses, "
                                       f"got {status!r}")
    return tuple(sorted((int(status), count) for status, count in counts))


def _percentiles(document: dict[str, Any], source: str) -> tuple[tuple[float, float], ...]:
    """(percentile, µs) pairs ascending; the ones oha left null (no answer) are left out."""
    percentiles = _FIELDS.object(document, "latencyPercentiles", source)
    found = []
    for key in percentiles:
        match = _PERCENTILE_KEY.fullmatch(key)
        if match is None:
            raise OhaJsonError(source, f"'latencyPercentiles' keys are p<number>, got {key!r}")
        value = _seconds_as_us(percentiles, key, source, "latencyPercentiles.")
        if value is not None:
            found.append((float(match.group(1)), value))
    return tuple(sorted(found))


def _histogram(document: dict[str, Any], source: str) -> tuple[tuple[float, int], ...]:
    """Without answers oha keys its bins "NaN" (from no fastest and slowest): no bins."""
    found = []
    for edge, count in _counts(document, "responseTimeHistogram", source):
        try:
            edge_s = float(edge)
        except ValueError:
            raise OhaJsonError(source, f"'responseTimeHistogram' keys are seconds, "
                                       f"got {edge!r}") from None
        if math.isnan(edge_s) and count == 0:
            continue
        if not math.isfinite(edge_s) or edge_s < 0:
            raise OhaJsonError(source, f"'responseTimeHistogram' bin {edge!r} holds {count}")
        found.append((edge_s * _MICROSECONDS_PER_SECOND, count))
    return tuple(sorted(found))


def _seconds_as_us(document: dict[str, Any], key: str, source: str,
                   prefix: str = "summary.") -> float | None:
    seconds = _FIELDS.optional_number(document, key, source, prefix)
    return None if seconds is None else seconds * _MICROSECONDS_PER_SECOND



