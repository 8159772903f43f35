"""results.md's "Servers as run" table, for a bench and a latency run alike. Pure."""

from __future__ import annotations

from httplab.manifest import BEYOND_MARK
from httplab.model import BenchResult, ServerRecord
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.wording.formatting import MISSING, format_bytes
from httplab.presentation.wording.runtime import jdk_text, memory_text

SERVER_HEADER = ("Server", "Version", "Transport", "Ready line", "First answer", "Image size",
                 "Java", "GC and heap", "Check")
BEYOND_NOTE = f"{BEYOND_MARK}: not in the 2019 write-up; measured here beside its five."


def run_servers_table(result: BenchResult) -> list[str]:
    """The lines of the section, none when the run recorded no server."""
    if not result.servers:
        return []
    beyond = any(server.beyond_write_up for server in result.servers)
    return ["", "Servers as run:", "",
            *markdown_table(SERVER_HEADER, [_server_row(s) for s in result.servers]),
            *(["", BEYOND_NOTE] if beyond else [])]


def _server_row(server: ServerRecord) -> tuple[str, ...]:
    first_answer = MISSING if server.startup_seconds is None else f"{server.startup_seconds:.2f} s"
    ready = server.startup_line.removeprefix("httplab-ready ") if server.startup_line else MISSING
    check = (f"not applicable: {server.not_applicable}" if server.not_applicable
             else server.verification or MISSING)
    return (server.label, f"{server.framework} {server.version}", server.transport, ready,
            first_answer, format_bytes(server.image_size_bytes), jdk_text(server),
            memory_text(server), check)
