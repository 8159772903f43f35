"""Read the JSON object done.lua writes at the end of a wrk run into a WrkRun.

These are wrk's exact figures (the printed report rounds them). Takes text;
does no I/O. Latency keys p50, p99_9, ... are percentiles (p99_9 is 99.9).
Later keys are optional, so older JSON still reads: ended_at_us (when done() ran) and
the latency histogram (latency_histogram, exact or a quantile grid, and its total as
latency_samples).
"""

from __future__ import annotations

import re
from typing import Any

from httplab.loadtools.json_fields import JsonFields, ToolJsonError
from httplab.model import Latency, LatencyHistogram, SocketErrors, ThreadRequestRate, WrkRun

LATENCY_KEYS = ("min", "mean", "stdev", "max", "p50", "p75", "p90", "p99", "p99_9")
_PERCENTILE_KEY = re.compile(r"p(\d+)(?:_(\d+))?")


class WrkJsonError(ToolJsonError):
    """A done.lua JSON object that cannot be read; names the source."""


_FIELDS = JsonFields(WrkJsonError, "done.lua")


def parse_done_json(text: str, source: str = "<json>") -> WrkRun:
    """The run described by done.lua's JSON object in `text`."""
    document = _FIELDS.load_object(text, source)
    duration_us = _FIELDS.number(document, "duration_us", source)
    requests = _FIELDS.count(document, "requests", source)
    bytes_read = _FIELDS.count(document, "bytes", source)
    errors = _FIELDS.object(document, "errors", source)
    # wrk's "status" error is an HTTP answer outside 2xx/3xx, not a socket error.
    non_2xx_3xx = _FIELDS.count(errors, "status", source, "errors.")
    duration_s = duration_us / 1e6
    histogram = _read_histogram(document, source)
    ended_at_us = _optional_number_key(document, "ended_at_us", source)
    return WrkRun(
        duration_s=duration_s,
        requests=requests,
        bytes_read=bytes_read,
        requests_per_sec=_per_second(requests, duration_s),
        transfer_per_sec=_per_second(bytes_read, duration_s),
        latency=_read_latency(_FIELDS.object(document, "latency", source), source),
        errors=_read_socket_errors(errors, source),
        non_2xx_3xx=non_2xx_3xx,
        threads=_optional_count(document, "threads", source),
        connections=_optional_count(document, "connections", source),
        url=_optional_string(document, "url", source),
        thread_requests_per_sec=_read_rate(document, source),
        latency_histogram=histogram,
        latency_histogram_exact=None if histogram is None else histogram.exact,
        latency_samples=_samples(document, histogram, source),
        ended_at_s=None if ended_at_us is None else ended_at_us / 1e6,
    )




def _read_socket_errors(errors: dict[str, Any], source: str) -> SocketErrors:
    keys = ("connect", "read", "write", "timeout")
    connect, read, write, timeout = (_FIELDS.count(errors, key, source, "errors.") for key in keys)
    return SocketErrors(connect=connect, read=read, write=write, timeout=timeout)


def _read_latency(latency: dict[str, Any], source: str) -> Latency:
    values = {key: _FIELDS.optional_number(latency, key, source, "latency.") for key in LATENCY_KEYS}
    percentiles = sorted(
        (_percentile_of(key), value)
        for key, value in values.items()
        if _PERCENTILE_KEY.fullmatch(key) and value is not None
    )
    return Latency(
        mean_us=values["mean"],
        stdev_us=values["stdev"],
        max_us=values["max"],
        min_us=values["min"],
        percentiles_us=tuple(percentiles),
    )


def _percentile_of(key: str) -> float:
    """'p50' -> 50.0, 'p99_9' -> 99.9."""
    whole, fraction = _PERCENTILE_KEY.fullmatch(key).groups()  # type: ignore[union-attr]
    return float(f"{whole}.{fraction or 0}")


def _read_rate(document: dict[str, Any], source: str) -> ThreadRequestRate | None:
    if document.get("thread_requests_per_sec") is None:
        return None
    rate = _FIELDS.object(document, "thread_requests_per_sec", source)
    prefix = "thread_requests_per_sec."
    keys = ("mean", "stdev", "max", "min")
    mean, stdev, maximum, minimum = (_FIELDS.optional_number(rate, key, source, prefix) for key in keys)
    if mean is None:
        return None  # no sample was taken: nothing is known
    return ThreadRequestRate(mean=mean, stdev=stdev, max=maximum, min=minimum)


def _read_histogram(document: dict[str, Any], source: str) -> LatencyHistogram | None:
    pairs = document.get("latency_histogram")
    if pairs is None:
        return None
    if not isinstance(pairs, list):
        raise WrkJsonError(source, f"'latency_histogram' must be a list, got {pairs!r}")
    buckets = tuple(_bucket(pair, source) for pair in pairs)
    if any(earlier[0] >= later[0] for earlier, later in zip(buckets, buckets[1:])):
        raise WrkJsonError(source, "'latency_histogram' values must ascend")
    exact = document.get("latency_histogram_exact", True)
    if not isinstance(exact, bool):
        raise WrkJsonError(source, f"'latency_histogram_exact' must be true or false, got {exact!r}")
    rank_error = _optional_number_key(document, "latency_histogram_rank_error_pct", source)
    return LatencyHistogram(buckets, exact, rank_error or 0.0)


def _bucket(pair: Any, source: str) -> tuple[int, int]:
    if not isinstance(pair, list) or len(pair) != 2:
        raise WrkJsonError(source, f"'latency_histogram' holds [value, count] pairs, got {pair!r}")
    value, count = (_FIELDS.count({"latency_histogram": item}, "latency_histogram", source)
                    for item in pair)
    return value, count


def _samples(document: dict[str, Any], histogram: LatencyHistogram | None, source: str) -> int | None:
    samples = _optional_count(document, "latency_samples", source)
    if samples is None and histogram is not None:
        return histogram.total
    return samples


def _optional_number_key(document: dict[str, Any], key: str, source: str) -> float | None:
    return None if document.get(key) is None else _FIELDS.number(document, key, source)


def _per_second(amount: int, duration_s: float) -> float:
    return amount / duration_s if duration_s > 0 else 0.0






def _optional_count(document: dict[str, Any], key: str, source: str) -> int | None:
    return None if document.get(key) is None else _FIELDS.count(document, key, source)


def _optional_string(document: dict[str, Any], key: str, source: str) -> str | None:
    value = document.get(key)
    if value is not None and not isinstance(value, str):
        raise WrkJsonError(source, f"'{key}' must be a string, got {value!r}")
    return value
