"""The oha (1.16) command line for one fixed-rate run. Pure."""

from __future__ import annotations

from dataclasses import dataclass

OHA_VERSION = "1.16.0"  # the version these arguments and the reader are written for


@dataclass(frozen=True)
class OhaRequest:
    rate_per_s: float  # requests are due at this fixed rate, whatever the server does
    duration_s: int
    connections: int
    url: str
    latency_correction: bool = True  # count latency from when a request was due


def oha_arguments(request: OhaRequest) -> list[str]:
    """Arguments after the oha executable: `rate_per_s` requests a second for duration_s
    seconds over at most `connections` connections, the JSON summary on stdout and no
    terminal UI. Requests still in flight at the end are aborted (oha's default without -w),
    so the run ends on time whatever the server does."""
    arguments = ["--no-tui", "--output-format", "json", "-q", _plain_number(request.rate_per_s),
                 "-z", f"{request.duration_s}s", "-c", str(request.connections)]
    if request.latency_correction:
        arguments.append("--latency-correction")
    return [*arguments, request.url]


def oha_time_limit_s(request: OhaRequest) -> int:
    """How long to wait for oha before killing it: its duration plus room to connect,
    sort the latencies and print."""
    return request.duration_s + 30


def _plain_number(value: float) -> str:
    """45000 rather than 45000.0 or 4.5e+04: as one would type it."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
