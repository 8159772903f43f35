"""The h2load command line for one fairness run, and fairness.sh's around it. Pure."""

from __future__ import annotations

from dataclasses import dataclass

# When fairness.sh reads the client sockets, as fractions of the run: late enough that
# every client has connected, early enough that none has stopped.
FIRST_READING = 0.10
SECOND_READING = 0.90


@dataclass(frozen=True)
class H2loadRequest:
    threads: int  # h2load wants at least as many connections as threads, as wrk does
    connections: int
    duration_s: int
    url: str


def h2load_arguments(request: H2loadRequest) -> list[str]:
    """Arguments after the h2load executable: HTTP/1.1 with one client per connection, each
    with one request in flight (h2load's default -m1), for duration_s seconds."""
    return ["--h1", f"-t{request.threads}", f"-c{request.connections}",
            f"-D{request.duration_s}", request.url]


def h2load_time_limit_s(request: H2loadRequest) -> int:
    """How long to wait for fairness.sh before ending it: the duration plus room to connect
    and finish. It must be bounded: h2load 1.52 never ends a timed run against a server
    that closes every connection after its answer."""
    return request.duration_s + 30


def reading_times(duration_s: int) -> tuple[float, float]:
    """Seconds after h2load starts at which fairness.sh reads the sockets."""
    return duration_s * FIRST_READING, duration_s * SECOND_READING


def fairness_script_arguments(stem: str, request: H2loadRequest, port: int) -> list[str]:
    """Arguments after fairness.sh: the stem of its two files (it names them as run_layout
    does: <stem>.h2load.txt and <stem>.sockets.txt), when to read the sockets, and
    the port whose connections it reads (the server's, as the client sees it)."""
    from_s, to_s = reading_times(request.duration_s)
    return [stem, f"{from_s:g}", f"{to_s:g}", str(port), "--", *h2load_arguments(request)]
