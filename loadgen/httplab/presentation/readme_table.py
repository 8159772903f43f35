"""The README's servers table, generated from the manifests. Pure: the CLI reads and
writes README.md (`make servers-table`)."""

from __future__ import annotations

from httplab.manifest import ServerManifest

HEADER = "| Server | Framework | Version | Workers | Transport | Folder |\n| --- | --- | --- | --- | --- | --- |\n"
START_MARKER = "<!-- servers-table:start -->"
END_MARKER = "<!-- servers-table:end -->"


class ReadmeTableError(ValueError):
    """The README lacks the markers that enclose the generated table."""


def servers_table(manifests: tuple[ServerManifest, ...]) -> str:
    rows = [f"| {m.label} | {m.framework} | {m.version} | {m.worker_setting} | {m.transport} "
            f"| `servers/{m.name}` |\n" for m in manifests]
    return HEADER + "".join(rows)


def readme_with_table(readme: str, table: str) -> str:
    """The README with everything between the two markers replaced by the table."""
    start, end = readme.find(START_MARKER), readme.find(END_MARKER)
    if start < 0 or end < start or readme.count(START_MARKER) != 1 or readme.count(END_MARKER) != 1:
        raise ReadmeTableError(f"README.md needs one {START_MARKER} line and, after it, one "
                               f"{END_MARKER} line around the servers table")
    return readme[:start + len(START_MARKER)] + "\n" + table + readme[end:]
