"""Proof on the wire: each protocol asked is the one spoken, and a stand-in server that
speaks another, downgrades, upgrades or presents another certificate fails, naming what it
answered."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.axes import H1, H1_TLS, H2, H2C
from httplab.checking.protocol_wire import protocol_problem
from tests.conftest import free_port
from tests.fake_server import FakeServer, hello_answer
from tests.support.protocol_stand_in import (SPEAKS_H1, SPEAKS_H1_400, SPEAKS_H2,
                                             ProtocolStandIn)

TIMEOUT_S = 2.0
H2_FIRST, HTTP1_ONLY = ("h2", "http/1.1"), ("http/1.1",)


def _problem(stand_in: ProtocolStandIn, protocol: str, tls) -> str:
    with stand_in:
        return protocol_problem("127.0.0.1", stand_in.port, protocol, tls, TIMEOUT_S)


def test_plain_http11_is_h1():
    with FakeServer(hello_answer) as server:
        assert protocol_problem("127.0.0.1", server.port, H1, None, TIMEOUT_S) == ""


def test_h2_negotiated_by_alpn_and_spoken_passes(run_tls):
    assert _problem(ProtocolStandIn(SPEAKS_H2, run_tls, H2_FIRST), H2, run_tls) == ""


def test_h2c_with_prior_knowledge_passes():
    assert _problem(ProtocolStandIn(SPEAKS_H2), H2C, None) == ""


@pytest.mark.parametrize("alpn", [HTTP1_ONLY, ()], ids=["http/1.1 chosen", "no ALPN"])
def test_h1_tls_kept_to_http11_passes(run_tls, alpn):
    assert _problem(ProtocolStandIn(SPEAKS_H1, run_tls, alpn), H1_TLS, run_tls) == ""


def test_h2_answered_in_http11_fails_naming_the_answer(run_tls):
    problem = _problem(ProtocolStandIn(SPEAKS_H1_400, run_tls, ("h2",)), H2, run_tls)
    assert problem == ("WireError: answered HTTP/1.1 on a connection where h2 was negotiated: "
                       "'HTTP/1.1 400 Bad Request'")


@pytest.mark.parametrize("alpn, said", [(HTTP1_ONLY, "http/1.1"), ((), "no protocol")],
                         ids=["http/1.1 chosen", "no ALPN"])
def test_h2_not_chosen_by_alpn_fails(run_tls, alpn, said):
    problem = _problem(ProtocolStandIn(SPEAKS_H1, run_tls, alpn), H2, run_tls)
    assert problem == f"negotiated {said} by ALPN, not h2"


def test_h2c_answered_in_http11_fails_naming_the_answer():
    problem = _problem(ProtocolStandIn(SPEAKS_H1_400), H2C, None)
    assert problem == ("WireError: answered HTTP/1.1 to the HTTP/2 preface sent with prior "
                       "knowledge: 'HTTP/1.1 400 Bad Request'")


def test_h2c_against_a_plain_http11_server_fails():
    """A real HTTP/1.1 server reads the preface as a request: whatever it answers is named."""
    with FakeServer(hello_answer) as server:
        problem = protocol_problem("127.0.0.1", server.port, H2C, None, TIMEOUT_S)
    assert problem.startswith("WireError: answered HTTP/1.1 to the HTTP/2 preface sent with "
                              "prior knowledge: 'HTTP/1.1 404 Not Found'"), problem


def test_h1_tls_not_answered_in_http1_fails(run_tls):
    """Offered http/1.1 alone (as wrk and oha offer it), a server that speaks HTTP/2 anyway
    gives no HTTP/1.1 answer."""
    problem = _problem(ProtocolStandIn(SPEAKS_H2, run_tls, H2_FIRST), H1_TLS, run_tls)
    assert problem == "WireError: connection closed by the server mid-response"


@pytest.mark.parametrize("protocol, speaks, alpn", [(H2, SPEAKS_H2, H2_FIRST),
                                                    (H1_TLS, SPEAKS_H1, HTTP1_ONLY)])
def test_another_certificate_fails_naming_both_and_why(run_tls, other_run_tls, protocol,
                                                      speaks, alpn):
    problem = _problem(ProtocolStandIn(speaks, other_run_tls, alpn), protocol, run_tls)
    assert problem == (f"served a certificate that is not the run's: sha256 "
                       f"{other_run_tls.fingerprint_sha256[:16]}..., expected "
                       f"{run_tls.fingerprint_sha256[:16]}... (it does not verify against the "
                       f"run's CA: unable to get local issuer certificate)")


@pytest.mark.parametrize("protocol, speaks, alpn", [(H2, SPEAKS_H2, H2_FIRST),
                                                    (H1_TLS, SPEAKS_H1, HTTP1_ONLY)])
def test_a_certificate_the_ca_signed_but_not_the_runs_fails(run_tls, protocol, speaks, alpn):
    """Verified against the CA, yet not the certificate the run made: the fingerprint decides."""
    expected = replace(run_tls, fingerprint_sha256="cd34" * 16)
    problem = _problem(ProtocolStandIn(speaks, run_tls, alpn), protocol, expected)
    assert problem == (f"served a certificate that is not the run's: sha256 "
                       f"{run_tls.fingerprint_sha256[:16]}..., expected cd34cd34cd34cd34...")


def test_tls_where_plaintext_is_served_fails_without_raising(run_tls):
    """An HTTP/1.1 server's 400 to the ClientHello is no TLS record."""
    problem = _problem(ProtocolStandIn(SPEAKS_H1_400), H2, run_tls)
    assert problem.startswith("SSLError: [SSL: WRONG_VERSION_NUMBER]"), problem


@pytest.mark.parametrize("protocol", [H1, H1_TLS, H2C, H2])
def test_nothing_listening_fails_without_raising(run_tls, protocol):
    problem = protocol_problem("127.0.0.1", free_port(), protocol, run_tls, TIMEOUT_S)
    assert problem.startswith("ConnectionRefusedError: "), problem


def test_a_tls_protocol_without_the_runs_files_is_a_mistake_of_the_caller():
    with pytest.raises(ValueError, match="h2 needs the run's TLS files"):
        protocol_problem("127.0.0.1", free_port(), H2, None, TIMEOUT_S)


def test_h2c_answered_with_bytes_that_are_no_http2_frames_fails_quoting_them():
    """An HTTP/1.1 fake reads the preface's first line as a request (PRI *) and answers this."""
    with FakeServer(lambda request: b"SSH-2.0-OpenSSH_9.2\r\n") as server:
        problem = protocol_problem("127.0.0.1", server.port, H2C, None, TIMEOUT_S)
    assert problem == ("WireError: answered bytes that are not an HTTP/2 SETTINGS frame to the "
                       "HTTP/2 preface sent with prior knowledge: b'SSH-2.0-OpenSSH_9.2\\r\\n'")


def test_an_unknown_protocol_is_a_mistake_of_the_caller():
    with pytest.raises(ValueError, match="not a protocol: 'h3'"):
        protocol_problem("127.0.0.1", free_port(), "h3", None, TIMEOUT_S)
