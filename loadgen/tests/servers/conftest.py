"""Fixtures of the server tests."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

# A throwaway CA and a server certificate it signs for 127.0.0.1 and localhost, both on EC
# P-256 keys; openssl writes the keys as unencrypted PKCS#8, as TLS_KEY wants them.
_EC_KEY = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes")
_OPENSSL_STEPS = (
    ("req", "-x509", *_EC_KEY, "-days", "2", "-subj", "/CN=httplab-test-ca",
     "-keyout", "ca.key", "-out", "ca.pem",
     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"),
    ("req", *_EC_KEY, "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr"),
    ("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
     "-CAcreateserial", "-days", "2", "-extfile", "ext", "-out", "server.pem"),
)
_SERVER_EXTENSIONS = "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"


@dataclass(frozen=True)
class TlsTestFiles:
    ca: Path  # the CA's certificate, which a client trusts
    certificate: Path  # TLS_CERT
    key: Path  # TLS_KEY

    @property
    def environment(self) -> dict[str, str]:
        return {"TLS_CERT": str(self.certificate), "TLS_KEY": str(self.key)}


@pytest.fixture(scope="session")
def tls_files(tmp_path_factory) -> TlsTestFiles:
    folder = tmp_path_factory.mktemp("tls")
    (folder / "ext").write_text(_SERVER_EXTENSIONS)
    for step in _OPENSSL_STEPS:
        subprocess.run(["openssl", *step], cwd=folder, check=True, capture_output=True, timeout=30)
    (folder / "server.key").chmod(0o600)
    return TlsTestFiles(folder / "ca.pem", folder / "server.pem", folder / "server.key")
