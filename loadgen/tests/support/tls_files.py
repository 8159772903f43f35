"""The run's TLS files as the lab makes them, for the servers' start tests, and curl asking
a started server for GET / over a protocol while trusting only their CA."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import NamedTuple

from httplab.axes import H1, H1_TLS, H2, H2C, TLS_PROTOCOLS

TOOL_WAIT_S = 60.0
# How curl asks for each protocol (it verifies the certificate by the run's CA), and the
# HTTP version it must then report.
CURL_PROTOCOL = {H1: (("--http1.1",), "1.1"), H1_TLS: (("--http1.1",), "1.1"),
                 H2C: (("--http2-prior-knowledge",), "2"), H2: (("--http2",), "2")}


class TlsTestFiles(NamedTuple):
    """A throwaway CA and the server certificate it signed, with its key (PKCS#8 PEM)."""

    ca: Path
    certificate: Path
    key: Path

    @property
    def environment(self) -> dict[str, str]:
        return {"TLS_CERT": str(self.certificate), "TLS_KEY": str(self.key)}


def make_tls_files(folder: Path) -> TlsTestFiles:
    """What the lab makes for a run over TLS: an EC P-256 CA, and a server certificate for
    127.0.0.1 and localhost that it signed, whose key only its owner may read."""
    ca, ca_key, key, csr, certificate, extensions = (
        folder / name for name in ("ca.pem", "ca.key", "server.key", "server.csr",
                                   "server.pem", "server.ext"))
    new_key = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes")
    _openssl("req", "-x509", *new_key, "-days", "2", "-subj", "/CN=httplab-test-ca",
             "-keyout", ca_key, "-out", ca, "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign")
    _openssl("req", *new_key, "-subj", "/CN=localhost", "-keyout", key, "-out", csr)
    extensions.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                          "extendedKeyUsage=serverAuth\n")
    _openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
             "-days", "2", "-extfile", extensions, "-out", certificate)
    key.chmod(0o600)
    return TlsTestFiles(ca, certificate, key)


def _openssl(*arguments: object) -> None:
    subprocess.run(["openssl", *map(str, arguments)], check=True, capture_output=True,
                   timeout=TOOL_WAIT_S)


def curl(protocol: str, port: int, tls_files: TlsTestFiles, *options: str) -> str:
    """"<HTTP version> <status> <body>" of GET / in the protocol's scheme, as curl reports
    them; curl's error when it got no answer."""
    scheme = "https" if protocol in TLS_PROTOCOLS else "http"
    answer = subprocess.run(["curl", "-sS", "--max-time", "10", "--cacert", str(tls_files.ca),
                             *options, "-w", "\n%{http_version} %{http_code}",
                             f"{scheme}://127.0.0.1:{port}/"],
                            capture_output=True, text=True, timeout=TOOL_WAIT_S, check=False)
    body, _, version_and_status = answer.stdout.rpartition("\n")
    return f"{version_and_status} {body}" if answer.returncode == 0 else answer.stderr.strip()
