"""Every server jar, started on 127.0.0.1 at a free port, must pass the lab's check:
the same one the harness runs before any load, with every workload's endpoint (/json,
/delay and /blocking). A missing jar fails; it never skips."""

from __future__ import annotations

import contextlib
import functools
import re
import socket
import subprocess
import zipfile

import pytest

from httplab.axes import EXECUTOR, H1_TLS, IO_URING, NIO, TLS_PROTOCOLS, TRANSPORT
from httplab.running.backends.local import run_jar, server_environment, java_command
from httplab.running.hostinfo import usable_cpus
from httplab.running.jdks import JdkNotFound, java_executable, server_jdk
from httplab.running.process import ServerProcess
from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.checking.conformance import protocol_said_problem, verify_started
from httplab.checking.ready_line import StartupInfo
from httplab.checking.responses import EXPECTED_BODY
from httplab.model import Workload
from httplab.running.process import ServerProcess

from tests.conftest import free_port, port_is_listening, run_until_exit
from tests.support.io_uring import require_io_uring
from tests.support.tls_files import CURL_PROTOCOL, TlsTestFiles, curl, make_tls_files

# Every servers/<name>/server.toml of a Maven module, so a new server folder is checked
# with no edit here; the nginx reference has no jar (tests/servers/test_reference.py checks it).
JARS = tuple(manifest for manifest in discover(servers_dir(DEFAULT_REPO))
             if manifest.is_maven_module)
SERVERS = tuple(manifest.name for manifest in JARS)
# Each server under each executor it offers beyond its own way (which the check above runs).
OTHER_EXECUTORS = tuple((manifest.name, executor) for manifest in JARS
                        for executor in manifest.executors[1:])
# Each server under an executor or an I/O engine it does not offer, which must stop it with
# one line.
MISSING_CHOICES = tuple((manifest.name, axis.setting, value) for manifest in JARS
                        for axis, offered in ((EXECUTOR, manifest.executors),
                                              (TRANSPORT, manifest.transports))
                        for value in axis.values if value not in offered)
# Each server under each I/O engine it offers beyond its own (which the check above runs).
OTHER_TRANSPORTS = tuple((manifest.name, transport) for manifest in JARS
                         for transport in manifest.transports[1:])
# Each server under each native engine it offers, which Netty's switch below makes unavailable.
NATIVE_TRANSPORTS = tuple((manifest.name, transport) for manifest in JARS
                          for transport in manifest.transports if transport != NIO)
# Each server under each protocol it offers (PROTOCOL), h1 too.
PROTOCOL_STARTS = tuple((manifest.name, protocol) for manifest in JARS
                        for protocol in manifest.protocols)
# Each server under each protocol over TLS it offers.
TLS_STARTS = tuple((name, protocol) for name, protocol in PROTOCOL_STARTS
                   if protocol in TLS_PROTOCOLS)
# Servers whose h1-tls port still answers a client offering h2 with HTTP/2, as their
# manifest's protocols_source says.
H1_TLS_UPGRADES = frozenset({"armeria"})
NO_NATIVE = "-Dio.netty.transport.noNative=true"
NETTY_VERSIONS = "META-INF/io.netty.versions.properties"
STOP_LIMIT_S = 5.0
# Every workload at a wait of 10 ms, DELAY_MS's default.
WORKLOADS = (Workload(), Workload("json"), Workload("delay", 10), Workload("blocking", 10))
FAULT_EXIT_WAIT_S = 60.0


def _manifest(manifests, name):
    return next(m for m in manifests if m.name == name)


def _java(manifest) -> str:
    """The host's JDK of the server's variant (JDK 25 unless a test asks for another)."""
    try:
        return str(java_executable(server_jdk(manifest)))
    except JdkNotFound as error:
        pytest.fail(str(error))


def _jar(manifest):
    jar = manifest.jar_path(servers_dir(DEFAULT_REPO))
    assert jar.is_file(), f"{jar} is missing: build it with `make jars`"
    return jar


@pytest.mark.slow
@pytest.mark.parametrize("name", SERVERS)
def test_server_passes_the_conformance_check_and_stops_on_sigterm(manifests, name):
    manifest = _manifest(manifests, name)
    port = free_port()
    with run_jar(_java(manifest), manifest, _jar(manifest), port) as (process, startup, _):
        verification = verify_started(startup, manifest, port, cpus=usable_cpus(),
                                      workloads=WORKLOADS)
        assert not verification.failures, verification.summary()
        assert startup.bind == f"127.0.0.1:{port}"
        stop_seconds = process.stop()
    assert stop_seconds < STOP_LIMIT_S, f"SIGTERM took {stop_seconds:.1f} s"
    assert not port_is_listening(port)


@pytest.mark.slow
@pytest.mark.parametrize("name, executor", OTHER_EXECUTORS)
def test_server_runs_its_blocking_work_where_executor_says_and_proves_it(manifests, name,
                                                                         executor):
    """The whole check again under the other executor, whose /blocking must wait on the
    kind of thread it asks for (X-Httplab-Thread), and whose ready line must say it."""
    manifest = _manifest(manifests, name).on_axis("EXECUTOR", executor, usable_cpus())
    assert _passes_the_whole_check(manifest).executor == executor


@pytest.mark.slow
@pytest.mark.parametrize("name, variable, value", MISSING_CHOICES)
def test_an_executor_or_transport_the_server_does_not_offer_stops_it_with_one_line(
        manifests, name, variable, value):
    _assert_stopped_with_a_line(*_run_until_exit(_manifest(manifests, name), {variable: value},
                                                 free_port()), f"{variable}={value}")


@pytest.mark.slow
@pytest.mark.parametrize("name", tuple(manifest.name for manifest in JARS
                                       if "virtual" in manifest.executors
                                       and "17" in manifest.jdks))
def test_virtual_threads_on_java_17_stop_the_server_with_one_line(manifests, name):
    manifest = _manifest(manifests, name).on_axis("JDK", "17", usable_cpus())
    _assert_stopped_with_a_line(*_run_until_exit(manifest, {"EXECUTOR": "virtual"}, free_port()),
                                "EXECUTOR=virtual needs Java 21")


@pytest.mark.slow
@pytest.mark.parametrize("name, transport", OTHER_TRANSPORTS)
def test_server_runs_on_the_transport_asked_and_its_ready_line_names_it(manifests, name,
                                                                         transport):
    """The whole check again on the other engine, which the ready line must name as the one
    the server runs on (read from the framework after start, never the setting copied)."""
    if transport == IO_URING:
        require_io_uring(_io_uring_refused())
    manifest = _manifest(manifests, name).on_axis("TRANSPORT", transport, usable_cpus())
    assert _passes_the_whole_check(manifest).transport == transport


def _passes_the_whole_check(manifest) -> StartupInfo:
    """Starts the server's jar, asserts it passes the whole check and stops it; its ready line."""
    port = free_port()
    with run_jar(_java(manifest), manifest, _jar(manifest), port) as (process, startup, _):
        verification = verify_started(startup, manifest, port, cpus=usable_cpus(),
                                      workloads=WORKLOADS)
        assert not verification.failures, verification.summary()
        process.stop()
    return startup


@pytest.mark.slow
@pytest.mark.parametrize("name, transport", NATIVE_TRANSPORTS)
def test_a_transport_that_cannot_start_here_stops_the_server_with_its_reason(manifests, name,
                                                                            transport):
    """No quiet fallback: with Netty's native transports switched off, a server asked for one
    stops at start with one line naming the engine and the framework's reason (Netty's)."""
    manifest = _manifest(manifests, name).on_axis("TRANSPORT", transport, usable_cpus())
    java, *arguments = java_command(_java(manifest), manifest, _jar(manifest))
    _assert_stopped_with_a_line(*run_until_exit([java, NO_NATIVE, *arguments],
                                                server_environment(manifest, free_port()),
                                                FAULT_EXIT_WAIT_S),
                                f"TRANSPORT={transport}", "noNative")


@functools.cache
def _io_uring_refused() -> str:
    """Why io_uring cannot start on this host ("" when it can): the one line of the Netty
    jar's IoUringProbe, the lab's own check before an io_uring run."""
    netty = next(manifest for manifest in JARS if manifest.name == "netty")
    probe = subprocess.run([_java(netty), "-cp", str(_jar(netty)), "httplab.netty.IoUringProbe"],
                           capture_output=True, text=True, timeout=FAULT_EXIT_WAIT_S, check=False)
    return "" if probe.returncode == 0 else probe.stdout.strip() or probe.stderr.strip()


def _assert_stopped_with_a_line(code: int | None, output: str, *naming: str) -> None:
    """Exit status 2 (a setting refused), with a line of the server's own naming each text."""
    assert code == 2, output
    assert any(line.startswith("httplab") and all(text in line for text in naming)
               for line in output.splitlines()), output


def _run_until_exit(manifest, env_changes: dict[str, str], port: int) -> tuple[int | None, str]:
    env = {**server_environment(manifest, port), **env_changes}
    return run_until_exit(java_command(_java(manifest), manifest, _jar(manifest)), env,
                          FAULT_EXIT_WAIT_S)


@pytest.mark.slow
@pytest.mark.parametrize("name", SERVERS)
@pytest.mark.parametrize("variable, value", [("PORT", "eighty"), ("PORT", "70000"),
                                             ("WORKERS", "0"), ("WORKERS", "-3"),
                                             ("EXECUTOR", "green"), ("TRANSPORT", "kqueue"),
                                             ("TRANSPORT", "uring")])
def test_bad_setting_exits_2_naming_the_variable(manifests, name, variable, value):
    _assert_stopped_with_a_line(*_run_until_exit(_manifest(manifests, name), {variable: value},
                                                 free_port()), variable)


@pytest.mark.slow
@pytest.mark.parametrize("name", SERVERS)
def test_port_in_use_exits_non_zero_with_a_clear_line(manifests, name):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        code, output = _run_until_exit(_manifest(manifests, name), {}, port)
    assert code not in (None, 0), output
    assert any(line.startswith("httplab") and "in use" in line for line in output.splitlines()), output


@pytest.mark.slow
@pytest.mark.parametrize("name", SERVERS)
def test_a_jar_carries_one_netty_version(manifests, name):
    """The native transports a server adds for TRANSPORT (io_uring) are at the Netty its
    framework resolves, never another beside it."""
    versions = _netty_versions(_jar(_manifest(manifests, name)))
    assert len(versions) <= 1, sorted(versions)


def _netty_versions(jar) -> set[str]:
    """The Netty versions in a jar: its merged netty-*.version entries (a shaded jar's) and
    its nested Netty jars' (a Spring Boot jar's BOOT-INF/lib)."""
    with zipfile.ZipFile(jar) as archive:
        names = archive.namelist()
        merged = archive.read(NETTY_VERSIONS).decode() if NETTY_VERSIONS in names else ""
    nested = (re.search(r"-(\d+\.\d+\.\d+\.Final)", name) for name in names
              if name.startswith("BOOT-INF/lib/netty-"))
    return ({match.group(1) for match in nested if match}
            | set(re.findall(r"^netty-[\w-]+\.version=(\S+)$", merged, re.MULTILINE)))


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory) -> TlsTestFiles:
    return make_tls_files(tmp_path_factory.mktemp("tls"))


@pytest.mark.slow
@pytest.mark.parametrize("name, protocol", PROTOCOL_STARTS)
def test_server_speaks_each_protocol_it_offers_and_its_ready_line_names_it(
        manifests, name, protocol, tls_files):
    """Started under PROTOCOL, its ready line names that protocol and the TLS engine read
    from the framework (none without TLS), and curl, trusting only the run's CA, gets its
    hello world in that protocol's HTTP version; on h1-tls, from the same start, curl
    offering h2 too gets HTTP/1.1."""
    manifest = _manifest(manifests, name).on_axis("PROTOCOL", protocol, usable_cpus())
    options, version = CURL_PROTOCOL[protocol]
    with _started(manifest, protocol, tls_files) as (startup, port):
        assert not protocol_said_problem(startup, manifest), startup.line
        assert curl(protocol, port, tls_files, *options) == f"{version} 200 Hello, World!"
        if protocol == H1_TLS:
            _assert_h1_tls_is_never_upgraded(manifest, curl(H1_TLS, port, tls_files, "--http2"))


def _assert_h1_tls_is_never_upgraded(manifest, answer: str) -> None:
    """curl offering h2 and http/1.1 by ALPN to an h1-tls port gets HTTP/1.1; the servers of
    H1_TLS_UPGRADES, whose manifests' protocols_source says why, still answer otherwise."""
    if manifest.name in H1_TLS_UPGRADES:
        assert answer != "1.1 200 Hello, World!", (
            f"{manifest.name} no longer upgrades h1-tls: take it out of H1_TLS_UPGRADES")
    else:
        assert answer == "1.1 200 Hello, World!", manifest.protocols_source


@pytest.mark.slow
@pytest.mark.parametrize("name, protocol", TLS_STARTS)
def test_a_certificate_the_framework_refuses_stops_the_server_with_one_line(
        manifests, name, protocol, tls_files):
    """No stand-in: given its key as TLS_CERT, the server stops at start, exit 2, with the
    framework's reason on one line naming the protocol."""
    manifest = _manifest(manifests, name)
    env = {**server_environment(manifest, free_port()), "PROTOCOL": protocol,
           "TLS_CERT": str(tls_files.key), "TLS_KEY": str(tls_files.key)}
    _assert_stopped_with_a_line(*run_until_exit(
        java_command(_java(manifest), manifest, _jar(manifest)), env, FAULT_EXIT_WAIT_S),
        f"PROTOCOL={protocol}")


@contextlib.contextmanager
def _started(manifest, protocol: str, tls_files: TlsTestFiles):
    """The jar running under PROTOCOL with the run's TLS files: its ready line and port."""
    port = free_port()
    env = server_environment(manifest.on_axis("PROTOCOL", protocol, None), port,
                             tls=tls_files.run_tls)
    process = ServerProcess(java_command(_java(manifest), manifest, _jar(manifest)), env)
    try:
        startup = process.wait_ready(FAULT_EXIT_WAIT_S)
        assert startup is not None, process.output()
        yield startup, port
    finally:
        process.stop()
