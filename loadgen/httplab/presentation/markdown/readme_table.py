"""The README's servers table, generated from the manifests. Pure: the CLI reads and
writes README.md (`make servers-table`)."""

from __future__ import annotations

from httplab.manifest import ServerManifest

HEADER = ("| Server | Framework | Version | Workers | Transports | Protocols | JDKs | Executors "
          "| Folder |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
START_MARKER = "<!-- servers-table:start -->"
END_MARKER = "<!-- servers-table:end -->"


class ReadmeTableError(ValueError):
    """The README lacks the markers that enclose the generated table."""


REFERENCE_MARK = " (ceiling reference, not a framework)"


def readme_servers_table(manifests: tuple[ServerManifest, ...]) -> str:
    """One row per server: the write-up's frameworks, those beyond it (marked), then the
    reference, marked as such."""
    # stable: keeps the name order
    ordered = sorted(manifests, key=lambda m: (m.is_reference, m.beyond_write_up))
    rows = [f"| {m.label}{REFERENCE_MARK if m.is_reference else ''} | {m.framework} "
            f"| {m.version} | {m.worker_setting} | {', '.join(m.transports)} "
            f"| {', '.join(m.protocols)} "
            f"| {', '.join(m.jdks) if not m.is_reference else '—'} "
            f"| {', '.join(m.executors) if not m.is_reference else '—'} | `servers/{m.name}` |\n"
            for m in ordered]
    return HEADER + "".join(rows)


def readme_with_table(readme: str, table: str) -> str:
    """The README with everything between the two markers replaced by the table."""
    start, end = readme.find(START_MARKER), readme.find(END_MARKER)
    if start < 0 or end < start or readme.count(START_MARKER) != 1 or readme.count(END_MARKER) != 1:
        raise ReadmeTableError(f"README.md needs one {START_MARKER} line and, after it, one "
                               f"{END_MARKER} line around the servers table")
    return readme[:start + len(START_MARKER)] + "\n" + table + readme[end:]
