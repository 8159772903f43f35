"""The README's servers table, generated from the manifests. Pure."""

from __future__ import annotations

from .manifest import ServerManifest

HEADER = "| Server | Framework | Version | Workers | Transport | Folder |\n| --- | --- | --- | --- | --- | --- |\n"


def servers_table(manifests: tuple[ServerManifest, ...]) -> str:
    rows = [f"| {m.label} | {m.framework} | {m.version} | {m.worker_setting} | {m.transport} "
            f"| `servers/{m.name}` |\n" for m in manifests]
    return HEADER + "".join(rows)
