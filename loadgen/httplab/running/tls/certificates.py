"""The certificate a run's TLS servers present: a throwaway CA made at run time and a
server certificate it signs for the loopback address. The CA's key lives only in memory
while it signs, so nothing can sign another certificate the clients would trust; the
server's key is written readable by its owner alone, and all of it is removed after the
run (remove_run_tls). Nothing here is ever written under results/."""

from __future__ import annotations

import ipaddress
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from httplab.addresses import LOOPBACK
from httplab.run_tls import RunTls, fingerprint_of

VALID_FOR = timedelta(days=3)  # longer than any run; short enough to be worthless after
CLOCK_SLACK = timedelta(hours=1)  # valid from a little before now, for clocks behind ours
SERVER_DNS_NAME = "localhost"
CA_NAME = "httplab throwaway run CA"
DIRECTORY_MODE, KEY_MODE = 0o700, 0o600


@dataclass(frozen=True)
class CertificatePems:
    """A fresh CA certificate, and the server certificate it signed with that one's key."""

    ca_certificate: bytes
    certificate: bytes
    key: bytes  # the server's private key: unencrypted PKCS#8 PEM

    @property
    def fingerprint_sha256(self) -> str:
        certificate = x509.load_pem_x509_certificate(self.certificate)
        return fingerprint_of(certificate.public_bytes(serialization.Encoding.DER))


def make_certificates(now: datetime | None = None) -> CertificatePems:
    """A new CA (EC P-256) and a server certificate for 127.0.0.1 and localhost, valid
    from now for VALID_FOR; new keys on every call. Pure: no file is written."""
    now = now or datetime.now(timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_certificate = _ca_certificate(ca_key, now)
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = _server_certificate(key.public_key(), ca_certificate, ca_key, now)
    return CertificatePems(
        ca_certificate.public_bytes(serialization.Encoding.PEM),
        certificate.public_bytes(serialization.Encoding.PEM),
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                          serialization.NoEncryption()))


def _builder(subject: x509.Name, issuer: x509.Name, public_key: ec.EllipticCurvePublicKey,
             now: datetime) -> x509.CertificateBuilder:
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
            .public_key(public_key).serial_number(x509.random_serial_number())
            .not_valid_before(now - CLOCK_SLACK).not_valid_after(now + VALID_FOR)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key),
                           critical=False))


def _ca_certificate(ca_key: ec.EllipticCurvePrivateKey, now: datetime) -> x509.Certificate:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, CA_NAME)])
    return (_builder(name, name, ca_key.public_key(), now)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(_key_usage(key_cert_sign=True), critical=True)
            .sign(ca_key, hashes.SHA256()))


def _server_certificate(public_key: ec.EllipticCurvePublicKey, ca: x509.Certificate,
                        ca_key: ec.EllipticCurvePrivateKey, now: datetime) -> x509.Certificate:
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, SERVER_DNS_NAME)])
    names = [x509.IPAddress(ipaddress.ip_address(LOOPBACK)), x509.DNSName(SERVER_DNS_NAME)]
    ca_key_id = ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    return (_builder(subject, ca.subject, public_key, now)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_key_usage(digital_signature=True), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
                ca_key_id), critical=False)
            .sign(ca_key, hashes.SHA256()))


def _key_usage(digital_signature: bool = False, key_cert_sign: bool = False) -> x509.KeyUsage:
    return x509.KeyUsage(digital_signature=digital_signature, content_commitment=False,
                         key_encipherment=False, data_encipherment=False, key_agreement=False,
                         key_cert_sign=key_cert_sign, crl_sign=False, encipher_only=False,
                         decipher_only=False)


def make_run_tls(parent: Path) -> RunTls:
    """Fresh certificates written into a new directory under parent (mode 0700), the key
    file mode 0600; the CA's key is never written."""
    pems = make_certificates()
    parent.mkdir(parents=True, exist_ok=True)
    directory = Path(tempfile.mkdtemp(prefix="tls-", dir=parent))
    directory.chmod(DIRECTORY_MODE)
    run_tls = RunTls.in_directory(directory, pems.fingerprint_sha256)
    run_tls.ca_file.write_bytes(pems.ca_certificate)
    run_tls.certificate_file.write_bytes(pems.certificate)
    _write_private(run_tls.key_file, pems.key)
    return run_tls


def _write_private(path: Path, data: bytes) -> None:
    """Created with KEY_MODE, so the key is never readable by others, not even briefly."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, KEY_MODE)
    with os.fdopen(descriptor, "wb") as file:
        os.fchmod(file.fileno(), KEY_MODE)  # whatever the umask took away
        file.write(data)


def remove_run_tls(run_tls: RunTls) -> None:
    """Removes the run's files and their directory; nothing else it may hold."""
    for path in (run_tls.key_file, run_tls.certificate_file, run_tls.ca_file):
        path.unlink(missing_ok=True)
    if run_tls.directory.exists():
        run_tls.directory.rmdir()
