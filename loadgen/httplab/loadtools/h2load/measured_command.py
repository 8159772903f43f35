"""The h2load (nghttp2 1.52) command line for one measured HTTP/2 run of make bench: h2c on
an http:// URL (h2load speaks HTTP/2 to it with prior knowledge, no Upgrade) and h2 on an
https:// one (ALPN offers h2 first; h2load says what was negotiated). h2load does not verify
the server's certificate and cannot be given a CA: the lab's check on the wire verifies it
before any load. Pure. (FAIRNESS=1's h2load --h1 run is command.py's.)"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class H2loadRunRequest:
    threads: int  # h2load wants at least as many connections as threads, as wrk does
    connections: int
    streams: int  # concurrent streams per connection (-m)
    duration_s: int
    url: str
    log_file: str | None  # where h2load writes each request's start, status and latency


def h2load_run_arguments(request: H2loadRunRequest) -> list[str]:
    """Arguments after the h2load executable: `connections` clients over `threads` threads,
    each with `streams` requests in flight, for duration_s seconds (no warm-up: the lab
    warms the server before), every request in the log file when there is one. h2load's
    summary has no percentiles: they are read from that file."""
    log = [] if request.log_file is None else [f"--log-file={request.log_file}"]
    return [f"-t{request.threads}", f"-c{request.connections}", f"-m{request.streams}",
            f"-D{request.duration_s}", *log, request.url]


def h2load_run_time_limit_s(request: H2loadRunRequest) -> int:
    """How long to wait for h2load before killing it: the duration plus room to connect
    and finish (h2load 1.52 never ends a timed run against a server that closes every
    connection, so the wait must be bounded)."""
    return request.duration_s + 30


def h2load_run_label(request: H2loadRunRequest, protocol: str) -> str:
    """How progress names the run: h2load -t10 -c500 -m1 -D10 (h2)."""
    return (f"h2load -t{request.threads} -c{request.connections} -m{request.streams} "
            f"-D{request.duration_s} ({protocol})")
