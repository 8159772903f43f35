"""The conformance check itself, against a fake server that is right, then wrong in one way."""

from dataclasses import replace

import pytest

from httplab.checking.http_wire import WireError, parse_closed_response, parse_head, request_bytes
from httplab.manifest import parse_manifest
from httplab.checking.ready_line import parse_startup_line
from httplab.checking.conformance import (http10_problems, parse_http_date, pipelined_paths,
                                          startup_problems, verify_server)

from tests.fake_server import FakeServer, hello_answer
from tests.test_plan import MANIFEST

FROZEN_DATE = "Sun, 22 Nov 2026 04:00:00 GMT"
# Short, so a server that leaves a connection open fails fast; long enough for a busy host.
FAKE_TIMEOUT_S = 2.0


def _failed_checks(answer, leave_open: bool = False) -> dict[str, str]:
    with FakeServer(answer, leave_open) as server:
        verification = verify_server(server.port, "Fake", timeout=FAKE_TIMEOUT_S)
    return {check.name: check.detail for check in verification.failures}


def _as_root(request):
    """Answers every path as if it were /."""
    return hello_answer(replace(request, path="/"))


def _silent_to_http10(request):
    return b"" if request.version == "HTTP/1.0" else hello_answer(request)


def test_a_correct_server_passes_every_check():
    assert _failed_checks(hello_answer) == {}


@pytest.mark.parametrize("answer, failing_check, detail", [
    (lambda r: hello_answer(r, body=b"Hello, World"), "GET /", "body b'Hello, World'"),
    (lambda r: hello_answer(r, server="Other"), "GET /plaintext", "Server 'Other'"),
    (lambda r: hello_answer(r, content_type="text/html"), "GET /", "Content-Type 'text/html'"),
    (lambda r: hello_answer(r, date="yesterday"), "GET /", "Date 'yesterday'"),
    (lambda r: hello_answer(r, date=FROZEN_DATE), "Date refreshed", "Date stayed"),
    (_as_root, "404 on unknown path", "status 200"),
    (_as_root, "16 pipelined requests in order", "statuses"),
])
def test_a_wrong_server_fails_the_matching_check(answer, failing_check, detail):
    failures = _failed_checks(answer)
    assert failing_check in failures, failures
    assert detail in failures[failing_check]


@pytest.mark.parametrize("answer, leave_open, failing_check, detail", [
    (lambda r: hello_answer(r, head_status=404), False, "HEAD / without a body",
     "status 404 for HEAD /, expected 200"),
    (lambda r: hello_answer(r, head_sends_body=True), False, "HEAD / without a body",
     "HEAD / (status 200) seems to have sent a body: the GET / after it on the same connection "
     "did not read right: not an HTTP/1.x status line: 'Hello, World!HTTP/1.1 200 OK'"),
    (lambda r: hello_answer(r, other_method_status=404), False, "405 on POST /",
     "status 404 for POST /, expected 405"),
    (lambda r: hello_answer(r, other_method_status=200), False, "405 on POST /",
     "status 200 for POST /, expected 405"),
    (hello_answer, True, "HTTP/1.0 answered and closed",
     "connection still open 2 s after the answer to GET / HTTP/1.0 (no keep-alive asked); "
     "expected the server to close it"),
    (_silent_to_http10, True, "HTTP/1.0 answered and closed",
     "no answer within 2 s to GET / HTTP/1.0"),
    (_silent_to_http10, False, "HTTP/1.0 answered and closed",
     "closed the connection without an answer to GET / HTTP/1.0"),
])
def test_a_server_wrong_in_one_way_fails_only_that_check(answer, leave_open, failing_check, detail):
    assert _failed_checks(answer, leave_open) == {failing_check: detail}


def test_nothing_listening_fails_cleanly():
    from tests.conftest import free_port

    verification = verify_server(free_port(), "Fake", timeout=1.0)
    assert not verification.passed
    assert "ConnectionRefusedError" in verification.summary()


def test_pipelined_paths_mix_statuses_so_order_shows():
    paths = pipelined_paths(6)
    assert paths == ["/", "/plaintext", "/httplab-no-such-path", "/plaintext", "/",
                     "/httplab-no-such-path"]


@pytest.mark.parametrize("value, valid", [
    ("Sun, 22 Nov 2026 04:00:00 GMT", True), ("Sun, 2 Nov 2026 04:00:00 GMT", True),
    ("2026-11-22T04:00:00Z", False), ("", False), (None, False),
    ("Sun, 22 Nov 2026 04:00:00 +0000", False),
])
def test_http_dates(value, valid):
    assert (parse_http_date(value) is not None) == valid


@pytest.mark.parametrize("data, closed, problem", [
    (b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!", True, ""),
    (b"HTTP/1.0 200 OK\r\n\r\nHello, World!", True, ""),  # delimited by the close
    (b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", True,
     "status 404 for GET / HTTP/1.0, expected 200; body b'' for GET / HTTP/1.0, "
     "expected b'Hello, World!'"),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!extra", True,
     "body b'Hello, World!extra' for GET / HTTP/1.0, expected b'Hello, World!'"),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!", False,
     "connection still open 5 s after the answer to GET / HTTP/1.0 (no keep-alive asked); "
     "expected the server to close it"),
    (b"", False, "no answer within 5 s to GET / HTTP/1.0"),
    (b"", True, "closed the connection without an answer to GET / HTTP/1.0"),
])
def test_http10_problems(data, closed, problem):
    assert http10_problems(data, closed, 5.0) == problem


def test_a_response_cut_off_in_its_head_is_a_wire_error():
    with pytest.raises(WireError, match="before the end of the response head"):
        parse_closed_response(b"HTTP/1.1 200 OK\r\nContent-Len")


@pytest.mark.parametrize("arguments, expected", [
    ({}, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n"),
    ({"method": "HEAD"}, b"HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n"),
    ({"version": "HTTP/1.0"}, b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n"),
    ({"method": "POST", "body": b""},
     b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\nContent-Length: 0\r\n\r\n"),
])
def test_request_bytes(arguments, expected):
    assert request_bytes("/", **arguments) == expected


def test_malformed_status_line_is_a_wire_error():
    with pytest.raises(WireError, match="not an HTTP/1.x status line"):
        parse_head("SSH-2.0-OpenSSH\r\nX: y")


LINE = ("httplab-ready framework=X version=1 transport=epoll workers={w} observed_workers={o} "
        "bind=127.0.0.1:8080")


@pytest.mark.parametrize("workers_value, line, cpus, problem", [
    ('"cpus"', LINE.format(w=2, o=2), 2, ""),
    ('"cpus"', LINE.format(w=2, o=2), None, ""),
    ('"cpus"', LINE.format(w=3, o=3), 2, "workers 3, expected 2"),
    ("16", LINE.format(w=16, o=16), 2, ""),
    ("16", LINE.format(w=8, o=8), 2, "workers 8, expected 16"),
    ("16", LINE.format(w=16, o=1), 2, "observed 1 workers running, configured 16"),
    ("16", LINE.format(w=16, o=16).replace("version=1", "version=2"), 2,
     "version 2, manifest says 1"),
])
def test_startup_line_against_manifest(workers_value, line, cpus, problem):
    text = MANIFEST.replace('workers = "cpus"', f"workers = {workers_value}")
    manifest = parse_manifest("x", text)
    assert startup_problems(parse_startup_line(line), manifest, cpus) == problem


def test_missing_startup_line_is_a_problem():
    assert "no httplab-ready line" in startup_problems(None, parse_manifest("x", MANIFEST))
