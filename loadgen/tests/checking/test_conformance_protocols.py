"""The conformance check over each protocol: the same answers over TLS and in HTTP/2 (in
cleartext and over TLS) against the protocol stand-in, where HTTP/2 gives the checks that
only HTTP/1.1 has their HTTP/2 form; a stand-in wrong in one way fails that check."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.axes import H1_TLS, H2, H2C
from httplab.checking.conformance import verify_server, verify_workloads
from httplab.model import Workload
from tests.fake_server import Endpoints, endpoints_answer, hello_answer
from tests.support.protocol_stand_in import (SPEAKS_H1, SPEAKS_H1_400, SPEAKS_H2,
                                             ProtocolStandIn)

# Answers timed against WAIT_SLACK_MS (250 ms), which another test's load can exceed.
pytestmark = pytest.mark.alone

TIMEOUT_S = 2.0
DELAY_MS = 20
JSON, DELAY, BLOCKING = Workload("json"), Workload("delay", DELAY_MS), Workload("blocking", DELAY_MS)
EVERY_WORKLOAD = (Workload(), JSON, DELAY, BLOCKING)
HTTP2_CONNECTION_CHECKS = ["1000 requests on one connection",
                           "16 concurrent streams on one connection answered each its own"]
HTTP1_CONNECTION_CHECKS = ["HTTP/1.0 answered and closed", "1000 requests on one connection",
                           "16 pipelined requests in order"]


def _stand_in(protocol: str, tls, answer=endpoints_answer, speaks: str = "") -> ProtocolStandIn:
    """A stand-in speaking the protocol right, unless speaks says otherwise."""
    if protocol == H1_TLS:
        return ProtocolStandIn(speaks or SPEAKS_H1, tls, ("http/1.1",), answer)
    if protocol == H2:
        return ProtocolStandIn(speaks or SPEAKS_H2, tls, ("h2",), answer)
    return ProtocolStandIn(speaks or SPEAKS_H2, None, (), answer)


def _verify(protocol: str, tls, answer=endpoints_answer, workloads=EVERY_WORKLOAD, speaks=""):
    with _stand_in(protocol, tls, answer, speaks) as server:
        return verify_server(server.port, "Fake", timeout=TIMEOUT_S, workloads=workloads,
                             blocking_thread="platform", protocol=protocol, tls=tls)


@pytest.mark.parametrize("protocol, connection_checks", [
    (H1_TLS, HTTP1_CONNECTION_CHECKS), (H2C, HTTP2_CONNECTION_CHECKS),
    (H2, HTTP2_CONNECTION_CHECKS)])
def test_a_right_server_passes_every_check_in_its_protocol(run_tls, protocol,
                                                           connection_checks):
    verification = _verify(protocol, run_tls)
    assert verification.failures == (), verification.summary()
    common = [check.name for check in verification.checks if check.workload is None]
    assert common == ["GET /", "GET /plaintext", "404 on unknown path", "HEAD / without a body",
                      "405 on POST /", *connection_checks, "Date refreshed"]
    assert [check.name for check in verification.checks if check.workload == BLOCKING.key][-1] \
        == "GET /blocking?ms=20 waited on a platform thread"


def _failed(protocol: str, tls, workloads: tuple[Workload, ...], **wrong) -> dict[str, str]:
    """The failed checks of the workloads alone (verify_server runs them the same way)."""
    answer = lambda request: endpoints_answer(request, Endpoints(**wrong))  # noqa: E731
    with _stand_in(protocol, tls, answer) as server:
        checks = verify_workloads(server.port, "Fake", workloads, timeout=TIMEOUT_S,
                                  blocking_thread="platform", protocol=protocol, tls=tls)
    return {check.name: check.detail for check in checks if not check.passed}


@pytest.mark.parametrize("protocol", [H2C, H2])
def test_head_with_data_frames_fails_naming_them(run_tls, protocol):
    failures = _failed(protocol, run_tls, (JSON, DELAY), head_sends_body=True)
    assert set(failures) == {"HEAD /json without a body", "HEAD /delay?ms=20 without a body"}
    assert failures["HEAD /json without a body"] == (
        "HEAD /json: HTTP/2 protocol error: InvalidBodyLengthError: InvalidBodyLengthError: "
        "Expected 0 bytes, received 27")


@pytest.mark.parametrize("protocol", [H1_TLS, H2C, H2])
@pytest.mark.parametrize("wrong, workload, check, detail", [
    ({"allow": False}, JSON, "405 on POST /json", "405 for POST /json without an Allow header"),
    ({"blocking_thread": "virtual"}, BLOCKING, "GET /blocking?ms=20 waited on a platform thread",
     "GET /blocking?ms=20: waited on a virtual thread (X-Httplab-Thread), expected a platform one"),
    ({"bad_ms_status": 404}, DELAY, "400 at once for a bad ms on /delay",
     "status 404 for GET /delay, expected 400"),
], ids=["405 without Allow", "blocking on another thread", "bad ms not 400"])
def test_a_workload_wrong_in_one_way_fails_that_check_in_every_protocol(run_tls, protocol, wrong,
                                                                        workload, check, detail):
    failures = _failed(protocol, run_tls, (workload,), **wrong)
    assert list(failures) == [check] and failures[check].startswith(detail), failures


@pytest.mark.parametrize("protocol", [H1_TLS, H2C, H2])
def test_a_frozen_date_and_a_wrong_server_header_fail_in_every_protocol(run_tls, protocol):
    failures = {check.name: check.detail for check in _verify(
        protocol, run_tls, lambda request: hello_answer(request, server="Other",
                                                        date="Sun, 22 Nov 2026 04:00:00 GMT"),
        workloads=()).failures}
    assert failures["Date refreshed"].startswith("Date stayed")
    assert failures["GET /"] == "Server 'Other', expected 'Fake'"


@pytest.mark.parametrize("protocol", [H2C, H2])
def test_streams_answered_out_of_their_own_fail(run_tls, protocol):
    """Every path answered as / : the unknown path's stream gets a 200, not its 404."""
    failures = {check.name: check.detail for check in _verify(
        protocol, run_tls, lambda request: hello_answer(replace(request, path="/")),
        workloads=()).failures}
    assert set(failures) == {"404 on unknown path",
                             "16 concurrent streams on one connection answered each its own"}
    assert failures["16 concurrent streams on one connection answered each its own"].startswith(
        "statuses [200, 200, 200, ")


@pytest.mark.parametrize("protocol, answered", [
    (H2C, "answered HTTP/1.1 to the HTTP/2 preface sent with prior knowledge"),
    (H2, "answered HTTP/1.1 on a connection where h2 was negotiated")])
def test_http11_answers_fail_every_http2_check_naming_them(run_tls, protocol, answered):
    verification = _verify(protocol, run_tls, speaks=SPEAKS_H1_400)
    assert not verification.passed
    assert {check.detail for check in verification.failures} == {
        f"WireError: {answered}: 'HTTP/1.1 400 Bad Request'"}


@pytest.mark.parametrize("alpn", [("http/1.1",), ()], ids=["http/1.1 only", "no ALPN"])
def test_h2_refused_by_alpn_fails_every_check(run_tls, alpn):
    """The checks offer h2 alone: a server that does not choose it chooses nothing."""
    with ProtocolStandIn(SPEAKS_H1, run_tls, alpn) as server:
        verification = verify_server(server.port, "Fake", timeout=TIMEOUT_S, protocol=H2,
                                     tls=run_tls)
    assert {check.detail for check in verification.failures} == {
        "WireError: negotiated no protocol by ALPN, not h2"}


def test_another_certificate_fails_every_check(run_tls, other_run_tls):
    with _stand_in(H2, other_run_tls) as server:
        checks = verify_workloads(server.port, "Fake", (JSON,), timeout=TIMEOUT_S,
                                  protocol=H2, tls=run_tls)
    assert checks and all("certificate verify failed" in check.detail for check in checks)


def test_a_tls_protocol_without_the_runs_files_is_a_mistake_of_the_caller():
    with pytest.raises(ValueError, match="h1-tls needs the run's TLS files"):
        verify_server(1, "Fake", protocol=H1_TLS)


@pytest.mark.parametrize("protocol", [H2C, H2])
def test_a_connection_ended_after_a_few_streams_fails_the_many_requests(run_tls, protocol):
    """More streams than the concurrent ones, far fewer than the many requests."""
    tls = run_tls if protocol == H2 else None
    with ProtocolStandIn(SPEAKS_H2, tls, ("h2",), hello_answer,
                         streams_per_connection=20) as server:
        verification = verify_server(server.port, "Fake", timeout=TIMEOUT_S, protocol=protocol,
                                     tls=tls)
    assert {check.name: check.detail for check in verification.failures} == {
        "1000 requests on one connection":
            "WireError: the server ended the connection (GOAWAY <ErrorCodes.NO_ERROR: 0>)"}
