"""Read the report wrk 4.x prints into a WrkRun. Takes text; does no I/O.

The report is found by its "Thread Stats" line and ends at "Transfer/sec:", so
text around it (a shell prompt, lines a Lua script printed) is ignored. Inside
the report every line must be one wrk prints: anything else is an error, as a
damaged paste must not pass for a measurement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from httplab.model import Latency, SocketErrors, ThreadRequestRate, WrkRun
from httplab.loadtools.wrk.units import parse_duration_us, parse_metric, parse_size_bytes


class WrkParseError(ValueError):
    """A wrk report that cannot be read; names the source and, when known, the line."""

    def __init__(self, source: str, line_number: int | None, reason: str) -> None:
        self.source = source
        self.line_number = line_number
        self.reason = reason
        where = source if line_number is None else f"{source}:{line_number}"
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True)
class _Line:
    number: int  # 1-based, in the text as given
    text: str  # without surrounding whitespace


@dataclass(frozen=True)
class _Header:
    url: str | None
    threads: int | None
    connections: int | None


_RUNNING = re.compile(r"Running \S+ test @ (\S+)")
_THREADS = re.compile(r"(\d+) threads and (\d+) connections")
_PERCENTILE = re.compile(r"(\d+(?:\.\d+)?)%\s+(\S+)")
_TOTALS = re.compile(r"(\d+) requests in (\S+), (\S+) read")
_SOCKET_ERRORS = re.compile(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")
_NON_2XX_3XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")
_REQUESTS_PER_SEC = re.compile(r"Requests/sec:\s*(\S+)")
_TRANSFER_PER_SEC = re.compile(r"Transfer/sec:\s*(\S+)")
_WITHIN_STDEV = re.compile(r"\d+(?:\.\d+)?%")
_NAN = re.compile(r"-?nan\S*", re.IGNORECASE)  # wrk prints 0/0 as "-nan"

# (kind, test) in the order tested: "Latency Distribution" before "Latency".
_LINE_KINDS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("distribution", lambda text: text == "Latency Distribution"),
    ("latency", lambda text: re.match(r"Latency\s", text) is not None),
    ("rate", lambda text: re.match(r"Req/Sec\s", text) is not None),
    ("percentile", lambda text: re.match(r"\d+(?:\.\d+)?%", text) is not None),
    ("totals", lambda text: re.match(r"\d+ requests in ", text) is not None),
    ("socket_errors", lambda text: text.startswith("Socket errors:")),
    ("non_2xx_3xx", lambda text: text.startswith("Non-2xx or 3xx responses:")),
    ("requests_per_sec", lambda text: text.startswith("Requests/sec:")),
    ("transfer_per_sec", lambda text: text.startswith("Transfer/sec:")),
)
_REQUIRED_KINDS = {"latency": "Latency", "rate": "Req/Sec", "totals": "N requests in",
                   "requests_per_sec": "Requests/sec:", "transfer_per_sec": "Transfer/sec:"}


def parse_report(text: str, source: str = "<text>") -> WrkRun:
    """The one wrk report in `text`; `source` names it in error messages."""
    lines = _split_lines(text)
    start, end = _report_span(lines, source)
    header = _read_header(lines[:start])
    body = _sort_body(lines[start + 1 : end + 1], source)
    return _build_run(header, body, lines[end], source)


def _split_lines(text: str) -> list[_Line]:
    text = text.removeprefix("\ufeff")
    return [_Line(number, raw.strip()) for number, raw in enumerate(text.split("\n"), start=1)]


def _report_span(lines: list[_Line], source: str) -> tuple[int, int]:
    """Indexes of the "Thread Stats" line and of the "Transfer/sec:" line ending it."""
    starts = [i for i, line in enumerate(lines) if line.text.startswith("Thread Stats")]
    if not starts:
        raise WrkParseError(source, None, "no wrk report: no 'Thread Stats' line")
    if len(starts) > 1:
        raise WrkParseError(source, lines[starts[1]].number, "a second wrk report starts here")
    for end in range(starts[0] + 1, len(lines)):
        if lines[end].text.startswith("Transfer/sec:"):
            return starts[0], end
    last = next(line for line in reversed(lines) if line.text)
    raise WrkParseError(source, last.number, "the wrk report ends without a 'Transfer/sec:' line")


def _read_header(before_report: list[_Line]) -> _Header:
    """The nearest "Running" and "threads and connections" lines above the report."""
    url = threads = connections = None
    for line in reversed(before_report):
        running = _RUNNING.fullmatch(line.text)
        counts = _THREADS.fullmatch(line.text)
        if running and url is None:
            url = running.group(1)
        if counts and threads is None:
            threads, connections = int(counts.group(1)), int(counts.group(2))
    return _Header(url, threads, connections)


def _sort_body(body: list[_Line], source: str) -> dict[str, list[_Line]]:
    """The report's lines by kind; unknown or repeated lines are errors."""
    sorted_lines: dict[str, list[_Line]] = {}
    for line in body:
        if not line.text:
            continue
        kind = _kind_of(line, source)
        if kind != "percentile" and kind in sorted_lines:
            raise WrkParseError(source, line.number, f"repeated line in the wrk report: {line.text!r}")
        sorted_lines.setdefault(kind, []).append(line)
    for kind, label in _REQUIRED_KINDS.items():
        if kind not in sorted_lines:
            raise WrkParseError(source, body[-1].number, f"the wrk report has no '{label}' line")
    return sorted_lines


def _kind_of(line: _Line, source: str) -> str:
    for kind, matches in _LINE_KINDS:
        if matches(line.text):
            return kind
    raise WrkParseError(source, line.number, f"unexpected line in the wrk report: {line.text!r}")


def _build_run(header: _Header, body: dict[str, list[_Line]], end: _Line, source: str) -> WrkRun:
    requests, duration_s, bytes_read = _read_totals(body["totals"][0], source)
    latency = _read_latency(body, source)
    rate = _read_rate(body["rate"][0], source)
    if requests == 0:
        # wrk prints 0.00 for statistics without a single sample: they are unknown.
        latency, rate = Latency(mean_us=None, stdev_us=None, max_us=None), None
    return WrkRun(
        duration_s=duration_s,
        requests=requests,
        bytes_read=bytes_read,
        requests_per_sec=_read_single(
            _REQUESTS_PER_SEC, body["requests_per_sec"][0], parse_metric, "requests/sec", source
        ),
        transfer_per_sec=_read_single(_TRANSFER_PER_SEC, end, parse_size_bytes, "transfer/sec", source),
        latency=latency,
        errors=_read_socket_errors(body.get("socket_errors", []), source),
        non_2xx_3xx=_read_non_2xx_3xx(body.get("non_2xx_3xx", []), source),
        threads=header.threads,
        connections=header.connections,
        url=header.url,
        thread_requests_per_sec=rate,
    )


def _read_latency(body: dict[str, list[_Line]], source: str) -> Latency:
    mean, stdev, maximum = _read_stats_row(body["latency"][0], parse_duration_us, "latency", source)
    percentiles = tuple(_read_percentile(line, source) for line in body.get("percentile", []))
    known = tuple((p, value) for p, value in percentiles if value is not None)
    return Latency(mean_us=mean, stdev_us=stdev, max_us=maximum, percentiles_us=tuple(sorted(known)))


def _read_rate(line: _Line, source: str) -> ThreadRequestRate:
    mean, stdev, maximum = _read_stats_row(line, parse_metric, "requests/sec per thread", source)
    return ThreadRequestRate(mean=mean, stdev=stdev, max=maximum)


def _read_stats_row(
    line: _Line, parse: Callable[[str], float], what: str, source: str
) -> tuple[float | None, float | None, float | None]:
    """A "Thread Stats" row: label, Avg, Stdev, Max, +/- Stdev."""
    fields = line.text.split()[1:]
    if len(fields) != 4:
        reason = f"{what} row needs Avg, Stdev, Max and +/- Stdev: {line.text!r}"
        raise WrkParseError(source, line.number, reason)
    mean, stdev, maximum, within_stdev = fields
    if not (_WITHIN_STDEV.fullmatch(within_stdev) or _NAN.fullmatch(within_stdev)):
        raise WrkParseError(source, line.number, f"cannot read {what} +/- stdev {within_stdev!r}")
    return (
        _read_value(mean, parse, what, line, source),
        _read_value(stdev, parse, what, line, source),
        _read_value(maximum, parse, what, line, source),
    )


def _read_percentile(line: _Line, source: str) -> tuple[float, float | None]:
    match = _full_match(_PERCENTILE, line, "latency percentile", source)
    value = _read_value(match.group(2), parse_duration_us, "latency percentile", line, source)
    return float(match.group(1)), value


def _read_value(field: str, parse: Callable[[str], float], what: str, line: _Line, source: str) -> float | None:
    if _NAN.fullmatch(field):
        return None
    try:
        return parse(field)
    except ValueError:
        raise WrkParseError(source, line.number, f"cannot read {what} {field!r}") from None


def _read_totals(line: _Line, source: str) -> tuple[int, float, int]:
    """'698315 requests in 10.08s, 66.60MB read' -> requests, seconds, bytes."""
    match = _full_match(_TOTALS, line, "requests line", source)
    duration_us = _read_value(match.group(2), parse_duration_us, "duration", line, source)
    size = _read_value(match.group(3), parse_size_bytes, "bytes read", line, source)
    if duration_us is None or size is None:
        raise WrkParseError(source, line.number, f"cannot read requests line {line.text!r}")
    return int(match.group(1)), duration_us / 1e6, round(size)


def _read_socket_errors(lines: list[_Line], source: str) -> SocketErrors:
    if not lines:
        return SocketErrors()  # wrk leaves the line out when every count is 0
    counts = _full_match(_SOCKET_ERRORS, lines[0], "socket errors", source).groups()
    connect, read, write, timeout = (int(count) for count in counts)
    return SocketErrors(connect=connect, read=read, write=write, timeout=timeout)


def _read_non_2xx_3xx(lines: list[_Line], source: str) -> int:
    if not lines:
        return 0  # wrk leaves the line out when every answer was 2xx or 3xx
    return int(_full_match(_NON_2XX_3XX, lines[0], "non-2xx or 3xx count", source).group(1))


def _read_single(pattern: re.Pattern[str], line: _Line, parse: Callable[[str], float], what: str, source: str) -> float:
    field = _full_match(pattern, line, what, source).group(1)
    try:
        return parse(field)
    except ValueError:
        raise WrkParseError(source, line.number, f"cannot read {what} {field!r}") from None


def _full_match(pattern: re.Pattern[str], line: _Line, what: str, source: str) -> re.Match[str]:
    match = pattern.fullmatch(line.text)
    if match is None:
        raise WrkParseError(source, line.number, f"cannot read {what} line {line.text!r}")
    return match
