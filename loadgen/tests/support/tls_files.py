"""The run's TLS files as the lab makes them, for the servers' start tests, and curl asking
a started server for GET / over a protocol while trusting only their CA."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import NamedTuple

from httplab.axes import H1, H1_TLS, H2, H2C, TLS_PROTOCOLS
from httplab.run_tls import RunTls
from httplab.running.tls.certificates import make_run_tls

TOOL_WAIT_S = 60.0
# How curl asks for each protocol (it verifies the certificate by the run's CA), and the
# HTTP version it must then report.
CURL_PROTOCOL = {H1: (("--http1.1",), "1.1"), H1_TLS: (("--http1.1",), "1.1"),
                 H2C: (("--http2-prior-knowledge",), "2"), H2: (("--http2",), "2")}


class TlsTestFiles(NamedTuple):
    """The run's TLS files (the lab's own, running/tls/certificates.py): its CA, the server
    certificate it signed and its key."""

    run_tls: RunTls

    @property
    def ca(self) -> Path:
        return self.run_tls.ca_file

    @property
    def certificate(self) -> Path:
        return self.run_tls.certificate_file

    @property
    def key(self) -> Path:
        return self.run_tls.key_file

    @property
    def environment(self) -> dict[str, str]:
        return {"TLS_CERT": str(self.certificate), "TLS_KEY": str(self.key)}


def make_tls_files(folder: Path) -> TlsTestFiles:
    """What the lab makes for a run over TLS, in a new folder under folder."""
    return TlsTestFiles(make_run_tls(folder))


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
