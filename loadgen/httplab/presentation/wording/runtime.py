"""Which JVM the servers ran on, as each reported it at start-up: a line of a run's header
(results.md, the run page). The base images decide it (Debian's OpenJDK from the local
ones of `make base-images`, Temurin from a registry), so two hosts can measure different
runtimes with the same command; the header says which this run had. Pure."""

from __future__ import annotations

from httplab.model import JAVA_VERSION_SEPARATOR, BenchResult, ServerRecord
from httplab.presentation.wording.formatting import MISSING


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


def jdk_text(server: ServerRecord) -> str:
    """The JDK asked for and the runtime that ran: 'JDK 25: OpenJDK Runtime Environment
    (build 25.0.5+8-LTS), Eclipse Adoptium'; what is known of it in an older run."""
    parts = [f"JDK {server.jdk}"] if server.jdk else []
    runtime = runtime_name(server.java_version) if server.java_version else None
    said = ", ".join(filter(None, (runtime, server.java_vendor)))
    return ": ".join(filter(None, (" ".join(parts), said))) or MISSING


def memory_text(server: ServerRecord) -> str:
    """'G1, heap up to 6144 MB': the collector and heap the JVM chose by itself (no flag
    sets them: in a container without a memory limit it sizes the heap from the host's)."""
    if server.gc is None:
        return MISSING
    heap = f", heap up to {server.heap_max_mb} MB" if server.heap_max_mb is not None else ""
    return f"{server.gc}{heap}"
