"""The conformance check itself, against a fake server that is right, then wrong in one way:
the common checks (the hello world) and each workload's (/json, /delay, /blocking)."""

import re
from dataclasses import replace

import pytest

from httplab.axes import JDK
from httplab.checking.http_wire import (Response, WireError, parse_closed_response, parse_head,
                                        request_bytes)
from httplab.manifest import parse_manifest
from httplab.checking.ready_line import parse_startup_line
from httplab.checking.conformance import (CheckResult, Verification, blocking_pool_problem, checks_wait_s,
                                          http10_problems, pipelined_paths,
                                          startup_problems, verify_server,
                                          verify_workloads)
from httplab.checking.responses import (WAIT_SLACK_MS, not_allowed_problem, parse_http_date,
                                        refusal_problem, wait_problem)
from httplab.model import Workload

from tests.fake_server import Endpoints, FakeServer, endpoints_answer, hello_answer
from tests.support.fake_backend import runtime_said, wire_said
from tests.support.plans import MANIFEST

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
    # Refused as Helidon 4 refuses HTTP/1.0, then closed: a clear answer; kept open, not.
    (b"HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n"
     b"Content-Length: 0\r\n\r\n", True, ""),
    (b"HTTP/1.1 505 HTTP Version Not Supported\r\nContent-Length: 0\r\n\r\n", False,
     "connection still open 5 s after the answer to GET / HTTP/1.0 (no keep-alive asked); "
     "expected the server to close it"),
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


# MANIFEST's blocking pool is "10 * cpus": 20 on the 2 CPUs of these rows.
LINE = ("httplab-ready framework=X version=1 transport=epoll workers={w} observed_workers={o} "
        "bind=127.0.0.1:8080 blocking_pool=20 db_pool=10 executor=pool protocol=h1 tls=none "
        "java=25.0.5 gc=G1 "
        "heap_max_mb=6144 "
        "vendor=Eclipse Adoptium")


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


@pytest.mark.parametrize("runtime, jdk, problem", [
    (" java=25.0.5 gc=G1 heap_max_mb=6144 vendor=Eclipse Adoptium", "25", ""),
    (" java=17.0.15 gc=G1 heap_max_mb=6144 vendor=Debian", "17", ""),
    (" java=17.0.15 gc=G1 heap_max_mb=6144 vendor=Debian", "25",
     "runs on JDK 17.0.15 (Debian), but the run asked for JDK 25"),
    (" java=21 gc=Serial heap_max_mb=256 vendor=Eclipse Adoptium", "17",
     "runs on JDK 21 (Eclipse Adoptium), but the run asked for JDK 17"),
    ("", "25", "no java= in the ready line, expected JDK 25"),
])
def test_the_jdk_a_server_says_it_runs_on_must_be_the_one_asked_for(runtime, jdk, problem):
    manifest = parse_manifest("x", MANIFEST).on_axis("JDK", jdk, 2)
    line = LINE.split(" java=")[0].format(w=2, o=2) + runtime
    assert startup_problems(parse_startup_line(line), manifest, 2) == problem


@pytest.mark.parametrize("said, asked, problem", [
    (" executor=pool", "pool", ""),
    (" executor=virtual", "virtual", ""),
    (" executor=pool", "virtual",
     "executor=pool in the ready line, but the run asked for EXECUTOR=virtual"),
    ("", "pool", "no executor= in the ready line, but the run asked for EXECUTOR=pool"),
], ids=["pool", "virtual", "stayed on its pool", "older jar"])
def test_where_a_server_says_it_runs_blocking_work_must_be_the_executor_asked_for(said, asked,
                                                                                   problem):
    manifest = parse_manifest("x", MANIFEST).on_axis("EXECUTOR", asked, 2)
    line = (LINE.split(" executor=")[0].format(w=2, o=2) + said + wire_said()
            + " java=25.0.5 gc=G1 heap_max_mb=6144 vendor=Eclipse Adoptium")
    assert startup_problems(parse_startup_line(line), manifest, 2) == problem


@pytest.mark.parametrize("said, asked, problem", [
    ("io_uring", "io_uring", ""),
    ("epoll", "", ""),  # none asked: the manifest's own, its first
    ("epoll", "io_uring",
     "transport=epoll in the ready line, but the run asked for TRANSPORT=io_uring"),
    ("nio", "epoll", "transport=nio in the ready line, but the run asked for TRANSPORT=epoll"),
    ("nio", "", "transport=nio in the ready line, but its manifest's own is epoll"),
], ids=["io_uring", "its own", "fell back to epoll", "fell back to nio", "not its own"])
def test_the_engine_a_server_says_it_runs_on_must_be_the_transport_asked_for(said, asked,
                                                                              problem):
    manifest = parse_manifest("x", MANIFEST).on_axis("TRANSPORT", asked, 2)
    line = LINE.format(w=2, o=2).replace("transport=epoll", f"transport={said}")
    assert startup_problems(parse_startup_line(line), manifest, 2) == problem


def test_missing_startup_line_is_a_problem():
    assert "no httplab-ready line" in startup_problems(None, parse_manifest("x", MANIFEST))


# --- The ready line's blocking pool ---------------------------------------------------------

BARE_LINE = ("httplab-ready framework=X version=1 transport=epoll workers=16 observed_workers=16 "
             "bind=127.0.0.1:8080")
REFERENCE = (MANIFEST.split("blocking_pool")[0] + 'role = "reference"\ntransports = "epoll"\n'
             'server_header = "X"\nport = 8080\npath = "/"\n').replace("workers = \"cpus\"",
                                                                      "workers = 16")


def _runtime_of(manifest_text: str) -> str:
    """What a JVM server of this manifest says last in its ready line: its runtime."""
    return wire_said() if 'role = "reference"' in manifest_text else runtime_said(JDK.default)


def _with_pool(pool: str | None) -> str:
    """MANIFEST with 16 workers and the blocking pool given (a TOML value)."""
    text = MANIFEST.replace('workers = "cpus"', "workers = 16")
    return text if pool is None else text.replace('blocking_pool = "10 * cpus"',
                                                  f"blocking_pool = {pool}")


@pytest.mark.parametrize("manifest_text, suffix, cpus, problem", [
    (_with_pool(None), " blocking_pool=20", 2, ""),
    (_with_pool(None), " blocking_pool=40", 4, ""),
    (_with_pool(None), " blocking_pool=30", 2, "blocking_pool 30, expected 20"),
    (_with_pool(None), "", 2, "no blocking_pool in the ready line, expected 20"),
    (_with_pool(None), " blocking_pool=30", None, ""),  # per CPU, CPUs unknown: not checked
    (_with_pool(None), "", None, ""),
    (_with_pool("200"), " blocking_pool=200", None, ""),  # a count is known without the CPUs
    (_with_pool("200"), " blocking_pool=199", None, "blocking_pool 199, expected 200"),
    (_with_pool('"workers"'), " blocking_pool=16", None, ""),  # the 16 workers themselves
    (_with_pool('"workers"'), " blocking_pool=200", 2, "blocking_pool 200, expected 16"),
    (REFERENCE, " blocking_pool=0", 2, ""),
    (REFERENCE, "", 2, ""),  # nginx before it printed one
    (REFERENCE, " blocking_pool=4", 2, "blocking_pool 4, expected 0: a reference has no /blocking"),
], ids=["expression", "expression on 4", "expression wrong", "missing", "unknown CPUs",
        "unknown CPUs, missing", "count", "count wrong", "workers", "workers wrong",
        "reference 0", "reference absent", "reference not 0"])
def test_the_ready_lines_blocking_pool_against_the_manifest(manifest_text, suffix, cpus, problem):
    startup = parse_startup_line(BARE_LINE + suffix + _runtime_of(manifest_text))
    assert blocking_pool_problem(startup, parse_manifest("x", manifest_text), cpus) == problem


@pytest.mark.parametrize("manifest_text, suffix, problem", [
    (_with_pool(None), " blocking_pool=20 db_pool=10", ""),
    (_with_pool(None), " blocking_pool=20 db_pool=4", "db_pool 4, expected 10"),
    (_with_pool(None), " blocking_pool=20", "no db_pool in the ready line, expected 10"),
    (REFERENCE, " blocking_pool=0 db_pool=0", ""),
    (REFERENCE, " blocking_pool=0 db_pool=3", "db_pool 3, expected 0: a reference has no /db"),
], ids=["same", "other", "missing", "reference 0", "reference not 0"])
def test_the_ready_lines_db_pool_against_the_manifest(manifest_text, suffix, problem):
    startup = parse_startup_line(BARE_LINE + suffix + _runtime_of(manifest_text))
    assert startup_problems(startup, parse_manifest("x", manifest_text), 2) == problem


def test_under_settings_default_a_worker_pool_follows_the_default_workers():
    manifest = parse_manifest("x", _with_pool('"workers"')).for_setting("default", 3)
    startup = parse_startup_line(BARE_LINE.replace("16", "6") + " blocking_pool=6 db_pool=10"
                                 + runtime_said(JDK.default))
    assert manifest.blocking_pool_size(3) == 6 and startup_problems(startup, manifest, 3) == ""


# --- Each workload's checks -----------------------------------------------------------------

DELAY_MS = 20
JSON, DELAY, BLOCKING = Workload("json"), Workload("delay", DELAY_MS), Workload("blocking", DELAY_MS)
EVERY_WORKLOAD = (Workload(), JSON, DELAY, BLOCKING)


def _verify(answer, workloads=EVERY_WORKLOAD) -> Verification:
    with FakeServer(answer) as server:
        return verify_server(server.port, "Fake", timeout=FAKE_TIMEOUT_S, workloads=workloads)


def test_a_right_server_passes_every_workloads_checks_each_marked_with_its_key():
    verification = _verify(endpoints_answer)
    assert verification.failures == (), verification.summary()
    by_workload = {}
    for check in verification.checks:
        by_workload.setdefault(check.workload, []).append(check.name)
    assert by_workload[JSON.key] == ["GET /json", "HEAD /json without a body", "405 on POST /json"]
    assert by_workload[DELAY.key] == [
        "GET /delay?ms=20 answered after 20 to 270 ms", "HEAD /delay?ms=20 without a body",
        "405 on POST /delay?ms=20", "400 at once for a bad ms on /delay"]
    assert by_workload[BLOCKING.key][0] == "GET /blocking?ms=20 answered after 20 to 270 ms"
    assert len(by_workload[None]) == 9, "plaintext's checks are the common ones"
    assert verification.summary() == f"all {len(verification.checks)} checks passed"


def _one_way(**wrong):
    return lambda request: endpoints_answer(request, Endpoints(**wrong))


def _workload_failures(answer, workload: Workload) -> dict[str, str]:
    """The failed checks of one workload alone (verify_server runs them the same way, after
    the common ones)."""
    with FakeServer(answer) as server:
        checks = verify_workloads(server.port, "Fake", (workload,), timeout=FAKE_TIMEOUT_S)
    assert {check.workload for check in checks} == {workload.key}
    return {check.name: check.detail for check in checks if not check.passed}


@pytest.mark.parametrize("wrong, workload, check, detail", [
    ({"json_body": b'{"message": "Hello, World!"}'}, JSON, "GET /json",
     "body b'{\"message\": \"Hello, World!\"}', expected b'{\"message\":\"Hello, World!\"}'; "
     "Content-Length '28', expected 27"),
    ({"json_type": "application/json; charset=utf-8"}, JSON, "GET /json",
     "Content-Type 'application/json; charset=utf-8', expected exactly 'application/json'"),
    ({"json_type": "text/plain"}, JSON, "GET /json",
     "Content-Type 'text/plain', expected exactly 'application/json'"),
    ({"allow": False}, JSON, "405 on POST /json", "405 for POST /json without an Allow header"),
    ({"other_method_status": 200}, JSON, "405 on POST /json",
     "status 200 for POST /json, expected 405"),
    ({"other_method_status": 404}, DELAY, "405 on POST /delay?ms=20",
     "status 404 for POST /delay?ms=20, expected 405"),
    ({"bad_ms_status": 404}, BLOCKING, "400 at once for a bad ms on /blocking",
     "status 404 for GET /blocking, expected 400; status 404 for GET /blocking?ms=0, expected 400; "
     "status 404 for GET /blocking?ms=-1, expected 400; status 404 for GET /blocking?ms=abc, "
     "expected 400; status 404 for GET /blocking?ms=10001, expected 400"),
], ids=["json body", "json charset", "json as text", "405 without Allow", "json takes POST",
        "404 for POST", "bad ms not 400"])
def test_an_endpoint_wrong_in_one_way_fails_only_that_check(wrong, workload, check, detail):
    assert _workload_failures(_one_way(**wrong), workload) == {check: detail}


def test_a_workloads_failure_leaves_the_server_passed_and_says_which_workload():
    verification = _verify(_one_way(allow=False), (JSON, DELAY))
    assert verification.passed, "the common checks still pass: the server runs"
    assert verification.failed_workloads() == {
        "json": "405 on POST /json: 405 for POST /json without an Allow header",
        "delay-20ms": "405 on POST /delay?ms=20: 405 for POST /delay?ms=20 without an Allow header"}


@pytest.mark.parametrize("wrong, workload, check, detail", [
    ({"extra_wait_ms": -15}, DELAY, "GET /delay?ms=20 answered after 20 to 270 ms",
     r"GET /delay\?ms=20 answered after \d+\.\d ms, sooner than the 20 ms asked"),
    ({"extra_wait_ms": WAIT_SLACK_MS + 80}, BLOCKING,
     "GET /blocking?ms=20 answered after 20 to 270 ms",
     r"GET /blocking\?ms=20 answered after 3\d\d\.\d ms at the soonest, later than 20 \+ 250 ms"),
    ({"bad_ms_wait_s": 0.4}, DELAY, "400 at once for a bad ms on /delay",
     r"400 for GET /delay after 4\d\d ms, expected it within 250 ms; .*ms=10001 after 4\d\d ms"),
    ({"head_sends_body": True}, JSON, "HEAD /json without a body",
     r"HEAD /json \(status 200\) seems to have sent a body: the GET / after it"),
], ids=["delay early", "blocking late", "bad ms waits", "HEAD /json with a body"])
def test_a_wait_too_early_or_too_late_fails_its_check(wrong, workload, check, detail):
    failures = _workload_failures(_one_way(**wrong), workload)
    assert list(failures) == [check] and re.match(detail, failures[check]), failures


def test_a_server_without_the_endpoints_fails_every_workload_but_still_runs():
    verification = _verify(hello_answer)
    assert verification.passed
    assert set(verification.failed_workloads()) == {JSON.key, DELAY.key, BLOCKING.key}
    assert "status 404, expected 200" in verification.failed_workloads()[JSON.key]
    assert verification.summary().startswith(f"9 of {len(verification.checks)} checks passed; "
                                             f"json failed (GET /json: status 404, expected 200")


def test_a_server_failing_the_common_checks_is_not_checked_further():
    verification = _verify(lambda request: hello_answer(request, server="Other"))
    assert not verification.passed
    assert all(check.workload is None for check in verification.checks)
    assert verification.failed_workloads() == {}
    assert verification.summary().startswith("GET /: Server 'Other', expected 'Fake'")


COMMON_OK, COMMON_BAD = CheckResult("GET /", True), CheckResult("GET /plaintext", False, "status 500")
JSON_BAD = CheckResult("GET /json", False, "status 404", "json")
DELAY_OK = CheckResult("GET /delay?ms=10", True, "", "delay-10ms")


@pytest.mark.parametrize("checks, passed, failed, summary", [
    ((COMMON_OK, DELAY_OK), True, {}, "all 2 checks passed"),
    ((COMMON_OK, JSON_BAD, DELAY_OK), True, {"json": "GET /json: status 404"},
     "2 of 3 checks passed; json failed (GET /json: status 404)"),
    ((COMMON_OK, JSON_BAD, replace(JSON_BAD, name="405 on POST /json", detail="status 200")),
     True, {"json": "GET /json: status 404; 405 on POST /json: status 200"},
     "1 of 3 checks passed; json failed (GET /json: status 404; 405 on POST /json: status 200)"),
    ((COMMON_BAD, JSON_BAD), False, {"json": "GET /json: status 404"},
     "GET /plaintext: status 500"),
], ids=["all passed", "a workload failed", "two checks of one workload", "common failed"])
def test_passed_is_the_common_verdict_and_failed_workloads_say_why(checks, passed, failed,
                                                                   summary):
    verification = Verification(checks)
    assert (verification.passed, verification.failed_workloads(), verification.summary()) == \
        (passed, failed, summary)


@pytest.mark.parametrize("elapsed, problem", [
    ([20.0, 21.5, 25.0], ""),
    ([270.0], ""),
    ([19.9, 300.0], "GET /delay?ms=20 answered after 19.9 ms, sooner than the 20 ms asked"),
    ([500.0, 270.1], "GET /delay?ms=20 answered after 270.1 ms at the soonest, later than "
                     "20 + 250 ms"),
])
def test_a_wait_is_judged_by_its_soonest_answer(elapsed, problem):
    assert wait_problem(elapsed, 20, "GET /delay?ms=20") == problem


@pytest.mark.parametrize("status, elapsed, problem", [
    (400, 1.0, ""),
    (400, 251.0, "400 for GET /delay?ms=0 after 251 ms, expected it within 250 ms"),
    (200, 1.0, "status 200 for GET /delay?ms=0, expected 400"),
])
def test_a_bad_ms_is_refused_at_once(status, elapsed, problem):
    assert refusal_problem(status, elapsed, "GET /delay?ms=0") == problem


@pytest.mark.parametrize("status, headers, problem", [
    (405, (("Allow", "GET, HEAD"),), ""),
    (405, (), "405 for POST /json without an Allow header"),
    (404, (("Allow", "GET"),), "status 404 for POST /json, expected 405"),
])
def test_a_method_not_allowed_names_the_allowed_ones(status, headers, problem):
    assert not_allowed_problem(Response(status, headers, b""), "POST /json") == problem


def test_a_remote_check_may_wait_as_long_as_the_waits_it_asks_for():
    assert checks_wait_s((Workload(), JSON)) == 0
    assert checks_wait_s((DELAY, BLOCKING, DELAY)) == pytest.approx(2 * 4 * (20 + 250) / 1000)


@pytest.mark.parametrize("said, asked, detail", [
    ("virtual", "virtual", None),
    ("platform", "platform", None),
    ("platform", "virtual", "GET /blocking?ms=20: waited on a platform thread "
                            "(X-Httplab-Thread), expected a virtual one"),
    (None, "virtual", "GET /blocking?ms=20: no X-Httplab-Thread header, expected 'virtual'"),
], ids=["virtual", "pool", "claims virtual, stayed on its pool", "says nothing"])
def test_blocking_must_wait_on_the_kind_of_thread_executor_asks_for(said, asked, detail):
    with FakeServer(_one_way(blocking_thread=said)) as server:
        checks = verify_workloads(server.port, "Fake", (BLOCKING,), timeout=FAKE_TIMEOUT_S,
                                  blocking_thread=asked)
    kind = next(check for check in checks if check.name.endswith("thread"))
    assert kind.name == f"GET /blocking?ms=20 waited on a {asked} thread"
    assert (kind.detail or None) == detail and kind.passed == (detail is None)


def test_without_an_executor_asked_the_thread_is_not_checked():
    with FakeServer(_one_way(blocking_thread=None)) as server:
        checks = verify_workloads(server.port, "Fake", (BLOCKING,), timeout=FAKE_TIMEOUT_S)
    assert all(check.passed for check in checks)
    assert not any(check.name.endswith("thread") for check in checks)
