"""The run's certificate: fresh per run, a CA the clients can trust and a server
certificate for the loopback address, the key readable by its owner alone, the CA's key
never written, and no key or certificate ever under results/ or in the image folder."""

from __future__ import annotations

import ipaddress
import stat
from datetime import datetime, timezone

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.x509.verification import PolicyBuilder, Store

from httplab.paths import DEFAULT_REPO, results_root
from httplab.run_tls import CA_FILE, CERTIFICATE_FILE, KEY_FILE, RunTls
from httplab.running.tls.certificates import (make_certificates, make_run_tls,
                                              remove_run_tls)

PEM_MARKERS = (b"PRIVATE KEY", b"BEGIN CERTIFICATE")


def _verified_chain(pems, subject: x509.GeneralName) -> list[x509.Certificate]:
    """The server certificate verified against the CA alone, for subject, as a client would
    (cryptography's web PKI policy: CA:TRUE, keyCertSign, serverAuth, the SAN)."""
    store = Store([x509.load_pem_x509_certificate(pems.ca_certificate)])
    verifier = (PolicyBuilder().store(store).time(datetime.now(timezone.utc))
                .build_server_verifier(subject))
    return verifier.verify(x509.load_pem_x509_certificate(pems.certificate), [])


@pytest.mark.parametrize("subject", [x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                     x509.DNSName("localhost")], ids=["127.0.0.1", "localhost"])
def test_the_server_certificate_verifies_against_the_run_ca(subject):
    assert len(_verified_chain(make_certificates(), subject)) == 2


def test_the_server_certificate_is_for_the_loopback_address_and_server_auth_only():
    certificate = x509.load_pem_x509_certificate(make_certificates().certificate)
    names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.IPAddress) == [ipaddress.ip_address("127.0.0.1")]
    assert names.get_values_for_type(x509.DNSName) == ["localhost"]
    usages = certificate.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert [usage.dotted_string for usage in usages] == ["1.3.6.1.5.5.7.3.1"]  # serverAuth


def test_the_ca_is_a_ca_for_a_few_days_only():
    ca = x509.load_pem_x509_certificate(make_certificates().ca_certificate)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert ca.extensions.get_extension_for_class(x509.KeyUsage).value.key_cert_sign
    assert 1 <= (ca.not_valid_after_utc - ca.not_valid_before_utc).days <= 7


def test_another_run_ca_does_not_vouch_for_this_server_certificate():
    this, other = make_certificates(), make_certificates()
    mixed = type(this)(other.ca_certificate, this.certificate, this.key)
    with pytest.raises(x509.verification.VerificationError):
        _verified_chain(mixed, x509.DNSName("localhost"))


def test_each_run_gets_fresh_keys_and_certificates(tmp_path):
    first, second = make_run_tls(tmp_path), make_run_tls(tmp_path)
    assert first.directory != second.directory
    assert first.fingerprint_sha256 != second.fingerprint_sha256
    assert first.key_file.read_bytes() != second.key_file.read_bytes()
    assert first.ca_file.read_bytes() != second.ca_file.read_bytes()


def test_the_files_key_only_for_its_owner_and_no_ca_key(tmp_path):
    run_tls = make_run_tls(tmp_path / "not-yet-there")
    assert stat.S_IMODE(run_tls.directory.stat().st_mode) == 0o700
    assert stat.S_IMODE(run_tls.key_file.stat().st_mode) == 0o600
    assert sorted(path.name for path in run_tls.directory.iterdir()) == sorted(
        [CA_FILE, CERTIFICATE_FILE, KEY_FILE])
    assert b"BEGIN PRIVATE KEY" in run_tls.key_file.read_bytes()  # PKCS#8, unencrypted
    assert not any(b"PRIVATE KEY" in path.read_bytes()
                   for path in (run_tls.ca_file, run_tls.certificate_file))


def test_the_fingerprint_is_the_served_certificates(tmp_path):
    run_tls = make_run_tls(tmp_path)
    certificate = x509.load_pem_x509_certificate(run_tls.certificate_file.read_bytes())
    assert run_tls.fingerprint_sha256 == certificate.fingerprint(hashes.SHA256()).hex()
    assert run_tls == RunTls.in_directory(run_tls.directory, run_tls.fingerprint_sha256)


def test_removing_leaves_nothing(tmp_path):
    run_tls = make_run_tls(tmp_path)
    remove_run_tls(run_tls)
    assert list(tmp_path.iterdir()) == []
    remove_run_tls(run_tls)  # twice is harmless


@pytest.mark.parametrize("folder", [results_root(DEFAULT_REPO), DEFAULT_REPO / "image"],
                         ids=["results", "image"])
def test_no_key_or_certificate_lies_in_the_repository(folder):
    found = sorted(str(path.relative_to(DEFAULT_REPO)) for path in folder.rglob("*")
                   if path.is_file() and any(marker in path.read_bytes()
                                             for marker in PEM_MARKERS))
    assert found == []
