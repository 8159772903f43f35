"""The wrk command line for one measured run. Pure."""

from __future__ import annotations

from dataclasses import dataclass

JSON_PATH_VARIABLE = "HTTPLAB_WRK_JSON"  # done.lua writes its JSON here (args do not reach done())


@dataclass(frozen=True)
class WrkRequest:
    threads: int
    connections: int
    duration: str  # as wrk takes it, e.g. "10s"
    duration_s: int
    url: str


def wrk_arguments(request: WrkRequest, lua_script: str) -> list[str]:
    """Arguments after the wrk executable; --latency adds the percentile block to the text.
    On an https:// URL (PROTOCOL h1-tls) wrk speaks TLS as it is: it cannot be given a CA
    and does not verify the server's certificate, which the lab's check on the wire
    verifies before any load."""
    return [f"-t{request.threads}", f"-c{request.connections}", f"-d{request.duration}",
            "--latency", "-s", lua_script, request.url]


def wrk_time_limit_s(request: WrkRequest) -> int:
    """How long to wait for wrk before killing it: its duration plus room to connect and finish."""
    return request.duration_s + 30
