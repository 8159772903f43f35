"""Server manifests: servers/<name>/server.toml, found by convention."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

MANIFEST_FILE = "server.toml"
CPUS = "cpus"
_REQUIRED_TEXT = ("display_name", "framework", "version", "worker_kind", "transport",
                  "server_header", "path")


class ManifestError(ValueError):
    """A manifest that is missing or malformed; the message names the file."""


@dataclass(frozen=True)
class ServerManifest:
    name: str  # the folder name: servers/<name>
    display_name: str
    framework: str
    version: str
    workers: int | str  # a count, or "cpus"
    worker_kind: str
    transport: str
    server_header: str
    port: int
    path: str
    jvm_options: str = ""

    @property
    def label(self) -> str:
        """The name the tables and charts show, as the original write-up did."""
        if isinstance(self.workers, int):
            return f"{self.display_name} ({self.workers} workers)"
        return self.display_name

    def expected_workers(self, cpus: int | None = None) -> int:
        """The worker count the server should report when WORKERS is not set."""
        if isinstance(self.workers, int):
            return self.workers
        return cpus if cpus is not None else (os.cpu_count() or 1)

    @property
    def worker_setting(self) -> str:
        if isinstance(self.workers, int):
            return f"{self.workers} {self.worker_kind}"
        return f"{self.worker_kind}: one per CPU"

    def jar_path(self, servers_dir: Path) -> Path:
        return servers_dir / self.name / "target" / f"{self.name}.jar"


def parse_manifest(name: str, text: str, source: str = MANIFEST_FILE) -> ServerManifest:
    """Builds a manifest from TOML text; raises ManifestError naming the source."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{source}: not valid TOML: {error}") from error
    for key in _REQUIRED_TEXT:
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise ManifestError(f"{source}: '{key}' must be a non-empty string")
    workers = data.get("workers")
    if not (workers == CPUS or (isinstance(workers, int) and workers > 0)):
        raise ManifestError(f"{source}: 'workers' must be a positive integer or \"{CPUS}\"")
    port = data.get("port")
    if not isinstance(port, int) or not 0 < port < 65536:
        raise ManifestError(f"{source}: 'port' must be an integer from 1 to 65535")
    return ServerManifest(
        name=name, workers=workers, port=port,
        jvm_options=str(data.get("jvm_options", "")),
        **{key: data[key] for key in _REQUIRED_TEXT},
    )


def discover(servers_dir: Path) -> tuple[ServerManifest, ...]:
    """Every servers/<name>/server.toml, sorted by folder name."""
    manifests = []
    for path in sorted(servers_dir.glob(f"*/{MANIFEST_FILE}")):
        manifests.append(parse_manifest(path.parent.name, path.read_text(), str(path)))
    if not manifests:
        raise ManifestError(f"no {MANIFEST_FILE} found under {servers_dir}")
    return tuple(manifests)
