"""The oha (1.16) command line for one fixed-rate run. Pure."""

from __future__ import annotations

import math
from dataclasses import dataclass

OHA_VERSION = "1.16.0"  # the version these arguments and the reader are written for
# The connections oha may open at a rate: enough for the requests in flight when each
# takes up to the latency target and as long again (Little's law), within these bounds.
CONNECTION_HEADROOM = 2.0  # x the target
MIN_CONNECTIONS = 16
MAX_CONNECTIONS = 1024  # more only adds overhead; 8192 broke the nginx reference here


@dataclass(frozen=True)
class OhaRequest:
    rate_per_s: float  # requests are due at this fixed rate, whatever the server does
    duration_s: int
    connections: int
    url: str
    latency_correction: bool = True  # count latency from when a request was due
    # HTTP/2 (PROTOCOL h2c, h2) with `streams` requests in flight per connection; else
    # HTTP/1.1, one at a time per connection.
    http2: bool = False
    streams: int = 1
    ca_file: str | None = None  # https: the CA oha verifies the server's certificate with
    keepalive: bool = True  # False: a new connection (and TLS handshake) per request


def oha_arguments(request: OhaRequest) -> list[str]:
    """Arguments after the oha executable: `rate_per_s` requests a second for duration_s
    seconds over at most `connections` connections, the JSON summary on stdout and no
    terminal UI. Requests still in flight at the end are aborted (oha's default without -w),
    so the run ends on time whatever the server does. oha's JSON names no HTTP version:
    its client speaks only the one asked (HTTP/1.1, offering only http/1.1 by ALPN on
    https; with --http2 only HTTP/2: h2 by ALPN, and prior knowledge on http://), so an
    answer in another is an error in its errorDistribution, never a counted answer."""
    arguments = ["--no-tui", "--output-format", "json", "-q", _plain_number(request.rate_per_s),
                 "-z", f"{request.duration_s}s", "-c", str(request.connections)]
    if request.latency_correction:
        arguments.append("--latency-correction")
    return [*arguments, *_protocol_arguments(request), request.url]


def _protocol_arguments(request: OhaRequest) -> list[str]:
    """HTTP/2 and its streams (oha's -p: parallel requests per HTTP/2 connection), the CA
    to verify with (never --insecure), and keep-alive off (HTTP/1.1 only: oha refuses it
    for HTTP/2)."""
    arguments = ["--http2", "-p", str(request.streams)] if request.http2 else []
    if request.ca_file is not None:
        arguments += ["--cacert", request.ca_file]
    if not request.keepalive:
        if request.http2:
            raise ValueError("oha cannot disable keep-alive over HTTP/2")
        arguments.append("--disable-keepalive")
    return arguments


def oha_label(request: OhaRequest, protocol: str | None = None) -> str:
    """How progress names a step: oha -q 2000 -c 16 -z 10s, and where they apply its
    streams, no keep-alive and the protocol (oha -q 2000 -c 16 -p 1 -z 10s (h2))."""
    streams = f" -p {request.streams}" if request.http2 else ""
    keepalive = "" if request.keepalive else " --disable-keepalive"
    named = "" if protocol is None else f" ({protocol})"
    return (f"oha -q {request.rate_per_s:g} -c {request.connections}{streams} "
            f"-z {request.duration_s}s{keepalive}{named}")


def oha_connections(rate_per_s: float, latency_target_us: float) -> int:
    wanted = math.ceil(rate_per_s * CONNECTION_HEADROOM * latency_target_us / 1e6)
    return min(max(wanted, MIN_CONNECTIONS), MAX_CONNECTIONS)


def oha_time_limit_s(request: OhaRequest) -> int:
    """How long to wait for oha before killing it: its duration plus room to connect,
    sort the latencies and print."""
    return request.duration_s + 30


def _plain_number(value: float) -> str:
    """45000 rather than 45000.0 or 4.5e+04: as one would type it."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
