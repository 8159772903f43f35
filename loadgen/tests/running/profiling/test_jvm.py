"""The JVM options of a profiled server: its own, then those for accurate Java frames."""

from __future__ import annotations

from dataclasses import replace

from httplab.running.profiling.jvm import PROFILED_JVM_OPTIONS, jvm_options

from tests.support.plans import KNOWN


def test_a_profiled_server_gets_the_options_for_accurate_java_frames_beside_its_own():
    server = replace(KNOWN[0], jvm_options="-Xss512k")
    assert jvm_options(server) == "-Xss512k"
    assert jvm_options(server.for_profile(True)) == f"-Xss512k {PROFILED_JVM_OPTIONS}"
    assert jvm_options(KNOWN[0].for_profile(True)) == (
        "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints")
