"""Proof on the wire, before any load, that a server speaks the protocol asked (axes.py's
PROTOCOL) on its port: h1, HTTP/1.1 in plaintext; h1-tls, HTTP/1.1 over TLS to a client
that offers http/1.1 alone by ALPN, as the load tools do (a server that would also take h2
when offered it, as Armeria's TLS port does, still serves this cell's load in HTTP/1.1);
h2c, HTTP/2 frames in answer to the
preface sent with prior knowledge; h2, h2 chosen by ALPN and HTTP/2 frames on it. Over TLS
the certificate served must be the run's (its fingerprint), verified against the run's CA.
Each check ends in a GET / answered 200 in that protocol."""

from __future__ import annotations

import ssl
from collections.abc import Callable

from httplab.axes import H1, H1_TLS, H2, H2C, TLS_PROTOCOLS
from httplab.checking.h2_wire import H2Client
from httplab.checking.http_wire import Connection, WireError
from httplab.checking.responses import status_problem
from httplab.checking.tls_wire import (ALPN_H2, ALPN_HTTP1, alpn_of, certificate_problem,
                                       client_context, h2_alpn_problem, open_socket,
                                       verification_problem)
from httplab.run_tls import RunTls

OFFERED_ALPN = (ALPN_H2, ALPN_HTTP1)  # what a browser offers: the server chooses


def protocol_problem(host: str, port: int, protocol: str, tls: RunTls | None,
                     timeout: float) -> str:
    """What is wrong with the protocol the server at host:port speaks, "" when it is the one
    asked; tls is the run's, required for h1-tls and h2. Never raises for a bad server:
    what it answered (or how the connection failed) is the problem's text."""
    if protocol not in _CHECKS:
        raise ValueError(f"not a protocol: {protocol!r}")
    if protocol in TLS_PROTOCOLS and tls is None:
        raise ValueError(f"{protocol} needs the run's TLS files")
    try:
        return _CHECKS[protocol](host, port, tls, timeout)
    except ssl.SSLCertVerificationError as error:
        return verification_problem(error, host, port, tls, timeout)
    except (OSError, WireError) as error:  # ssl.SSLError is an OSError
        return f"{type(error).__name__}: {error}"


def _h1(host: str, port: int, tls: RunTls | None, timeout: float) -> str:
    with Connection(host, port, timeout) as connection:
        return _http11_hello(connection)


def _h1_tls(host: str, port: int, tls: RunTls, timeout: float) -> str:
    """Offered http/1.1 alone, the server must answer in HTTP/1.1 (choosing http/1.1 or
    nothing by ALPN)."""
    with Connection(host, port, timeout, context=client_context(tls, (ALPN_HTTP1,))) as connection:
        if (chosen := alpn_of(connection.socket)) not in (None, ALPN_HTTP1):
            return (f"upgraded to {chosen}: the server chose it by ALPN when offered "
                    f"{ALPN_HTTP1} alone; h1-tls must stay on {ALPN_HTTP1}")
        return certificate_problem(connection.socket, tls) or _http11_hello(connection)


def _http11_hello(connection: Connection) -> str:
    return status_problem(connection.get("/").status, "GET / in HTTP/1.1", 200)


def _h2c(host: str, port: int, tls: RunTls | None, timeout: float) -> str:
    with H2Client.open(host, port, timeout) as client:
        return _http2_hello(client)


def _h2(host: str, port: int, tls: RunTls, timeout: float) -> str:
    sock = open_socket(host, port, timeout, client_context(tls, OFFERED_ALPN))
    with H2Client(sock) as client:
        problem = certificate_problem(sock, tls) or h2_alpn_problem(alpn_of(sock))
        if problem:
            return problem
        client.start()
        return _http2_hello(client)


def _http2_hello(client: H2Client) -> str:
    return status_problem(client.get("/").status, "GET / in HTTP/2", 200)


_CHECKS: dict[str, Callable[[str, int, RunTls | None, float], str]] = {
    H1: _h1, H1_TLS: _h1_tls, H2C: _h2c, H2: _h2}
