"""The run's TLS files: where the certificate the lab makes for a run lies (running/tls/
makes and removes them) and what the checks must see served (checking/protocol_wire.py).
The files' names are said here once. A leaf: stdlib only, so that the checks may import
it as well as the runner."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

CA_FILE = "ca.pem"  # the throwaway CA's certificate, which the clients trust
CERTIFICATE_FILE = "server.pem"  # the server's certificate (TLS_CERT)
KEY_FILE = "server.key"  # its private key, unencrypted PKCS#8 PEM (TLS_KEY), mode 0600


@dataclass(frozen=True)
class RunTls:
    """One run's certificate files, and the SHA-256 of the server certificate's DER (hex),
    which is what a server must present."""

    directory: Path
    ca_file: Path
    certificate_file: Path
    key_file: Path
    fingerprint_sha256: str

    @classmethod
    def in_directory(cls, directory: Path, fingerprint_sha256: str) -> RunTls:
        """The files under their names in directory."""
        return cls(directory, directory / CA_FILE, directory / CERTIFICATE_FILE,
                   directory / KEY_FILE, fingerprint_sha256)


def fingerprint_of(certificate_der: bytes) -> str:
    """A certificate's SHA-256 fingerprint: the hex of the hash of its DER."""
    return hashlib.sha256(certificate_der).hexdigest()
