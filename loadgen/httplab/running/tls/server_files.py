"""What a server over TLS is given of the run's TLS files: TLS_CERT and TLS_KEY (servers/common
TlsFiles), as this host names them or as a container that mounts the run's folder does."""

from __future__ import annotations

from pathlib import Path

from httplab.axes import TLS_PROTOCOLS
from httplab.manifest import ServerManifest
from httplab.run_tls import RunTls
from httplab.running.backend_error import BackendError


def tls_environment(manifest: ServerManifest, tls: RunTls | None,
                    folder: Path | None = None) -> dict[str, str]:
    """TLS_CERT and TLS_KEY for a protocol over TLS: the run's files, or their names in
    folder (where a container sees the run's folder); none otherwise."""
    if manifest.protocol not in TLS_PROTOCOLS:
        return {}
    if tls is None:
        raise BackendError(f"{manifest.key}: {manifest.protocol} needs the run's TLS files")
    certificate, key = ((tls.certificate_file, tls.key_file) if folder is None else
                        (folder / tls.certificate_file.name, folder / tls.key_file.name))
    return {"TLS_CERT": str(certificate), "TLS_KEY": str(key)}


def asks_tls(servers: tuple[ServerManifest, ...]) -> bool:
    """Some server of the run speaks a protocol over TLS."""
    return any(server.protocol in TLS_PROTOCOLS for server in servers)
