"""results.md's "Servers as run" table, for a bench and a latency run alike. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, ServerRecord
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.wording.formatting import MISSING, format_bytes
from httplab.presentation.wording.runtime import runtime_name

SERVER_HEADER = ("Server", "Version", "Transport", "Ready line", "First answer", "Image size",
                 "Java", "Check")


def run_servers_table(result: BenchResult) -> list[str]:
    """The lines of the section, none when the run recorded no server."""
    if not result.servers:
        return []
    return ["", "Servers as run:", "",
            *markdown_table(SERVER_HEADER, [_server_row(s) for s in result.servers])]


def _server_row(server: ServerRecord) -> tuple[str, ...]:
    first_answer = MISSING if server.startup_seconds is None else f"{server.startup_seconds:.2f} s"
    ready = server.startup_line.removeprefix("httplab-ready ") if server.startup_line else MISSING
    return (server.label, f"{server.framework} {server.version}", server.transport, ready,
            first_answer, format_bytes(server.image_size_bytes), _java(server.java_version),
            server.verification or MISSING)


def _java(version: str | None) -> str:
    """The JVM's build line (e.g. 'OpenJDK Runtime Environment (build 17.0.19+10-...)')."""
    return runtime_name(version) if version else MISSING
