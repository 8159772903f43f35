"""The run's TLS files for as long as the run lasts: made fresh when some server speaks a
protocol over TLS, in a private folder outside results/, and removed when the run ends,
however it ends."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from httplab.manifest import ServerManifest
from httplab.run_tls import RunTls
from httplab.running.tls.certificates import make_run_tls, remove_run_tls
from httplab.running.tls.server_files import asks_tls

FOLDER = "httplab-tls"  # under the system's temporary folder


@contextmanager
def run_tls_for(servers: tuple[ServerManifest, ...],
                parent: Path | None = None) -> Iterator[RunTls | None]:
    """The run's files while the block runs (None when no server speaks TLS)."""
    if not asks_tls(servers):
        yield None
        return
    run_tls = make_run_tls(parent or Path(tempfile.gettempdir()) / FOLDER)
    try:
        yield run_tls
    finally:
        remove_run_tls(run_tls)
