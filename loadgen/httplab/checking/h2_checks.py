"""The conformance checks HTTP/2 gives another form, over one h2_wire.H2Client: HEAD
answered without DATA; concurrent streams on one connection, each answered its own (where
HTTP/1.1 pipelines). Each returns what is wrong, "" when nothing.
Imports no HTTP/2 library itself: the client it is handed does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from httplab.checking.http_wire import WireError
from httplab.checking.responses import status_problem

if TYPE_CHECKING:
    from httplab.checking.h2_wire import H2Client

QUOTED_BYTES = 40


def head_problem(client: H2Client, path: str) -> str:
    """HEAD path answers 200 and ends its stream without DATA (the h2 library refuses DATA
    on a HEAD's stream, which the error then names)."""
    try:
        response = client.request(path, "HEAD")
    except WireError as error:
        return f"HEAD {path}: {error}"
    if response.body:
        return (f"HEAD {path} (status {response.status}) sent a body in DATA frames: "
                f"{response.body[:QUOTED_BYTES]!r}")
    return status_problem(response.status, f"HEAD {path}", 200)


def concurrent_streams_problem(client: H2Client, paths: Sequence[str],
                               expected: Sequence[int]) -> str:
    """Every request sent before any answer is read, then each stream's status in turn."""
    stream_ids = [client.send_request(path) for path in paths]
    statuses = [client.read_response(stream_id).status for stream_id in stream_ids]
    return "" if statuses == list(expected) else f"statuses {statuses}, expected {list(expected)}"



