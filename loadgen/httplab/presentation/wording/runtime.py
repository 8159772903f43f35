"""Which JVM the servers ran on, as each reported it at start-up: a line of a run's header
(results.md, the run page). The base images decide it (Debian's OpenJDK from the local
ones of `make base-images`, Temurin from a registry), so two hosts can measure different
runtimes with the same command; the header says which this run had. Pure."""

from __future__ import annotations

from httplab.model import JAVA_VERSION_SEPARATOR, BenchResult


def jvm_text(result: BenchResult) -> str | None:
    """'OpenJDK Runtime Environment (build 17.0.19+10-1-deb12u2-Debian), every JVM server',
    or each runtime with its servers when they differ; None when no server reported one."""
    servers: dict[str, list[str]] = {}
    for record in result.servers:
        if record.java_version:
            servers.setdefault(runtime_name(record.java_version), []).append(record.label)
    if len(servers) == 1:
        return f"{next(iter(servers))}, every JVM server"
    return "; ".join(f"{runtime}: {', '.join(labels)}"
                     for runtime, labels in servers.items()) or None


def runtime_name(java_version: str) -> str:
    """The runtime line of what the server reported (it names the vendor's build), else all
    of it."""
    return java_version.split(JAVA_VERSION_SEPARATOR)[-1]


def host_lines(result: BenchResult) -> list[str]:
    """The header's first lines: the host, then the servers' JVM when any reported one."""
    jvm = jvm_text(result)
    return [f"Host: {result.host.describe()}", *(["", f"Servers' JVM: {jvm}"] if jvm else [])]
