"""The client side of the run's TLS, for the checks: a context that trusts the run's CA
alone (verification stays on) and offers the ALPN protocols asked, a socket opened with
it, and what is wrong with what the server presented or negotiated. Stdlib only."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Sequence

from httplab.run_tls import RunTls, fingerprint_of

ALPN_H2, ALPN_HTTP1 = "h2", "http/1.1"
SHOWN_DIGITS = 16  # of a fingerprint, in a problem's text


def client_context(tls: RunTls, alpn: Sequence[str]) -> ssl.SSLContext:
    """Verifies the server's certificate against the run's CA (and its name against the
    address dialled); offers alpn, in that order of preference."""
    context = ssl.create_default_context(cafile=str(tls.ca_file))
    context.set_alpn_protocols(list(alpn))
    return context


def open_socket(host: str, port: int, timeout: float,
                context: ssl.SSLContext | None = None) -> socket.socket:
    """A TCP connection, over TLS when a context is given (its handshake done)."""
    sock = socket.create_connection((host, port), timeout=timeout)
    if context is None:
        return sock
    try:
        return context.wrap_socket(sock, server_hostname=host)
    except BaseException:
        sock.close()
        raise


def alpn_of(sock: socket.socket) -> str | None:
    """The protocol the server selected by ALPN; None without TLS or without a choice."""
    return sock.selected_alpn_protocol() if isinstance(sock, ssl.SSLSocket) else None


def h2_alpn_problem(selected: str | None) -> str:
    """HTTP/2 over TLS is h2 chosen by ALPN, nothing else."""
    if selected == ALPN_H2:
        return ""
    return f"negotiated {selected or 'no protocol'} by ALPN, not {ALPN_H2}"


def certificate_problem(sock: ssl.SSLSocket, tls: RunTls) -> str:
    """The certificate served must be the run's, not merely one its CA would vouch for."""
    served = fingerprint_of(sock.getpeercert(binary_form=True))
    return "" if served == tls.fingerprint_sha256 else not_the_runs(served, tls)


def not_the_runs(served: str, tls: RunTls, why: str = "") -> str:
    return (f"served a certificate that is not the run's: sha256 {served[:SHOWN_DIGITS]}..., "
            f"expected {tls.fingerprint_sha256[:SHOWN_DIGITS]}..."
            + (f" ({why})" if why else ""))


def verification_problem(error: ssl.SSLCertVerificationError, host: str, port: int,
                         tls: RunTls, timeout: float) -> str:
    """A handshake that failed verification, naming its error and, when one more handshake
    can read it (unverified, only to say what it was), the certificate served."""
    why = f"it does not verify against the run's CA: {error.verify_message}"
    try:
        pem = ssl.get_server_certificate((host, port), timeout=timeout)
    except (OSError, ValueError):
        return f"served a certificate that {why.removeprefix('it ')}"
    served = fingerprint_of(ssl.PEM_cert_to_DER_cert(pem))
    if served == tls.fingerprint_sha256:
        return f"the run's certificate was refused: {error.verify_message}"
    return not_the_runs(served, tls, why)
