"""One measured h2load run of make bench as a WrkRun, the model wrk's runs are read into,
from its two raw files: the summary (the harness's header line naming h2load's arguments,
then what h2load printed) and the record of its --log-file (latency_record.py). Takes
text and records; does no I/O.

From the summary: its duration, the application protocol it spoke, its request counts and
the bytes it read. From the log's record: each status's count, the answered requests'
latency (in wrk's units, whole µs: exact mean, stdev, min and max; percentiles from its
HdrHistogram) and when the last one ended. h2load's counts, by its documentation:
"failed" holds the non-2xx/3xx answers and the "errored" requests (network failures and
reset streams, an answer never came), and "timeout" the timed-out ones among those.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from httplab.loadtools.h2load.latency_record import FAILED_STREAM, H2loadLatency
from httplab.loadtools.h2load.report import parse_h2load
from httplab.model import SocketErrors, WrkRun

TOOL = "h2load"
HEADER_PREFIX = f"# httplab: {TOOL} "  # the harness's first line of the summary file
_APPLICATION = re.compile(r"Application protocol: (\S+)")
_TRAFFIC = re.compile(r"traffic: \S+ \((\d+)\) total, .*")
_SCHEME_PROTOCOL = {"http": "h2c", "https": "h2"}  # what h2load speaks by the URL's scheme


@dataclass(frozen=True)
class H2loadArguments:
    threads: int
    connections: int
    streams: int
    url: str


def asked_protocol(url: str) -> str | None:
    """The application protocol h2load should speak: h2c with prior knowledge on an
    http:// URL, h2 by ALPN on an https:// one (the PROTOCOL axis's names too)."""
    return _SCHEME_PROTOCOL.get(url.split("://", 1)[0])


def summary_header(arguments: list[str]) -> str:
    """The line the harness writes before h2load's output: its arguments, so that the run
    says its threads, connections, streams and URL (h2load's summary does not)."""
    return HEADER_PREFIX + shlex.join(arguments) + "\n"


def read_h2load_run(summary: str, requests: H2loadLatency, summary_source: str,
                    requests_source: str) -> WrkRun:
    """The run the summary and the log's record describe; ValueError naming the source
    when the summary cannot be read, or when they disagree on how many requests finished."""
    arguments = _arguments(summary, summary_source)
    report = parse_h2load(summary, summary_source)
    statuses, ended_at_us = requests.statuses, requests.ended_at_us
    if sum(statuses.values()) != report.succeeded + report.failed:
        raise ValueError(f"{requests_source}: {sum(statuses.values())} requests, where "
                         f"{summary_source} says {report.succeeded + report.failed} done")
    answered = requests.answered
    bytes_read = _traffic_bytes(summary, summary_source)
    duration_s = report.duration_s
    return WrkRun(
        duration_s=duration_s, requests=answered, bytes_read=bytes_read,
        requests_per_sec=_per_second(answered, duration_s),
        transfer_per_sec=_per_second(bytes_read, duration_s),
        latency=requests.latency,
        errors=SocketErrors(read=max(report.errored - report.timeout, 0),
                            timeout=report.timeout),
        non_2xx_3xx=sum(count for status, count in statuses.items()
                        if status != FAILED_STREAM and not 200 <= status < 400),
        threads=arguments.threads, connections=arguments.connections, url=arguments.url,
        # Its histogram is an HdrHistogram (within 0.1 %), not wrk's exact one: kept in
        # the record, as no run of h2load is merged with another.
        latency_histogram=None, latency_histogram_exact=False, latency_samples=answered,
        ended_at_s=None if ended_at_us is None else ended_at_us / 1e6,
        tool=TOOL, protocol=_application_protocol(summary, summary_source),
        streams=arguments.streams)


def protocol_failure(run: WrkRun) -> str | None:
    """Why an h2load run does not count: it spoke another application protocol than its
    URL asked for (or named none: it never connected); None when it spoke the one asked."""
    asked = asked_protocol(run.url or "")
    if run.protocol == asked:
        return None
    spoke = f"spoke {run.protocol}" if run.protocol else "named no application protocol"
    return f"h2load was asked for {asked} at {run.url} and {spoke}"


def _arguments(summary: str, source: str) -> H2loadArguments:
    """h2load's -t, -c, -m and URL, from the harness's header line."""
    first = summary.split("\n", 1)[0]
    if not first.startswith(HEADER_PREFIX):
        raise ValueError(f"{source}:1: no {HEADER_PREFIX.strip()!r} line naming the "
                         f"arguments of the run")
    words = shlex.split(first[len(HEADER_PREFIX):])
    options = {word[:2]: word[2:] for word in words if re.fullmatch(r"-[tcm]\d+", word)}
    if len(options) != 3 or "://" not in words[-1]:
        raise ValueError(f"{source}:1: the header needs -t, -c, -m and the URL: {first!r}")
    return H2loadArguments(int(options["-t"]), int(options["-c"]), int(options["-m"]),
                           words[-1])


def _application_protocol(summary: str, source: str) -> str | None:
    """The protocol h2load says it spoke; None when it printed none (no connection)."""
    found = {match.group(1) for match in _APPLICATION.finditer(summary)}
    if len(found) > 1:
        raise ValueError(f"{source}: h2load names several application protocols: "
                         f"{', '.join(sorted(found))}")
    return found.pop() if found else None


def _traffic_bytes(summary: str, source: str) -> int:
    lines = [line.strip() for line in summary.splitlines() if line.startswith("traffic:")]
    match = _TRAFFIC.fullmatch(lines[0]) if len(lines) == 1 else None
    if match is None:
        raise ValueError(f"{source}: not one h2load 'traffic:' line")
    return int(match.group(1))


def _per_second(amount: int, duration_s: float) -> float:
    return amount / duration_s if duration_s > 0 else 0.0
