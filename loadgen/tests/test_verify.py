"""The conformance check itself, against a fake server that is right, then wrong in one way."""

import pytest

from httplab.http_wire import WireError, parse_head
from httplab.manifest import parse_manifest
from httplab.startup import parse_startup_line
from httplab.verify import parse_http_date, pipelined_paths, startup_problems, verify_server

from .fake_server import FakeServer, hello_answer
from .test_plan import MANIFEST

FROZEN_DATE = "Sun, 22 Nov 2026 04:00:00 GMT"


def _failed_checks(answer) -> dict[str, str]:
    with FakeServer(answer) as server:
        verification = verify_server(server.port, "Fake")
    return {check.name: check.detail for check in verification.failures}


def test_a_correct_server_passes_every_check():
    assert _failed_checks(hello_answer) == {}


@pytest.mark.parametrize("answer, failing_check, detail", [
    (lambda p: hello_answer(p, body=b"Hello, World"), "GET /", "body b'Hello, World'"),
    (lambda p: hello_answer(p, server="Other"), "GET /plaintext", "Server 'Other'"),
    (lambda p: hello_answer(p, content_type="text/html"), "GET /", "Content-Type 'text/html'"),
    (lambda p: hello_answer(p, date="yesterday"), "GET /", "Date 'yesterday'"),
    (lambda p: hello_answer(p, date=FROZEN_DATE), "Date refreshed", "Date stayed"),
    (lambda p: hello_answer("/"), "404 on unknown path", "status 200"),
    (lambda p: hello_answer("/"), "16 pipelined requests in order", "statuses"),
])
def test_a_wrong_server_fails_the_matching_check(answer, failing_check, detail):
    failures = _failed_checks(answer)
    assert failing_check in failures, failures
    assert detail in failures[failing_check]


def test_nothing_listening_fails_cleanly():
    from .conftest import free_port

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
