"""How a profiled JVM server starts: async-profiler's advice for accurate Java frames
(without DebugNonSafepoints, the JIT keeps debug information only at safepoints, and a
sample taken between two is charged to the wrong frame)."""

from __future__ import annotations

from httplab.manifest import ServerManifest

PROFILED_JVM_OPTIONS = "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints"


def jvm_options(manifest: ServerManifest) -> str:
    """JAVA_OPTS of the server: its manifest's, and the profiler's when it is profiled."""
    profiled = PROFILED_JVM_OPTIONS if manifest.profiled else ""
    return " ".join(option for option in (manifest.jvm_options, profiled) if option)
