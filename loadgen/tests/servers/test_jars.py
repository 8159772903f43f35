"""Every server jar, started on 127.0.0.1 at a free port, must pass the lab's check:
the same one the harness runs before any load, with every workload's endpoint (/json,
/delay and /blocking). A missing jar fails; it never skips."""

from __future__ import annotations

import socket

import pytest

from httplab.running.backends.local import run_jar, server_environment, java_command
from httplab.running.hostinfo import usable_cpus
from httplab.running.jdks import JdkNotFound, java_executable, server_jdk
from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.checking.conformance import verify_started
from httplab.model import Workload

from tests.conftest import free_port, port_is_listening, run_until_exit

# Every servers/<name>/server.toml of a Maven module, so a new server folder is checked
# with no edit here; the nginx reference has no jar (tests/servers/test_reference.py checks it).
JARS = tuple(manifest for manifest in discover(servers_dir(DEFAULT_REPO))
             if manifest.is_maven_module)
SERVERS = tuple(manifest.name for manifest in JARS)
# Each server under each executor it offers beyond its own way (which the check above runs).
OTHER_EXECUTORS = tuple((manifest.name, executor) for manifest in JARS
                        for executor in manifest.executors[1:])
# Each server under an executor it does not offer, which must stop it with one line.
MISSING_EXECUTORS = tuple((manifest.name, executor) for manifest in JARS
                          for executor in ("pool", "virtual") if executor not in manifest.executors)
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
    port = free_port()
    with run_jar(_java(manifest), manifest, _jar(manifest), port) as (process, startup, _):
        verification = verify_started(startup, manifest, port, cpus=usable_cpus(),
                                      workloads=WORKLOADS)
        assert not verification.failures, verification.summary()
        assert startup.executor == executor
        process.stop()


@pytest.mark.slow
@pytest.mark.parametrize("name, executor", MISSING_EXECUTORS)
def test_an_executor_the_server_does_not_offer_stops_it_with_one_line(manifests, name,
                                                                      executor):
    code, output = _run_until_exit(_manifest(manifests, name), {"EXECUTOR": executor},
                                   free_port())
    assert code == 2, output
    assert any(line.startswith("httplab") and f"EXECUTOR={executor}" in line
               for line in output.splitlines()), output


@pytest.mark.slow
@pytest.mark.parametrize("name", tuple(manifest.name for manifest in JARS
                                       if "virtual" in manifest.executors
                                       and "17" in manifest.jdks))
def test_virtual_threads_on_java_17_stop_the_server_with_one_line(manifests, name):
    manifest = _manifest(manifests, name).on_axis("JDK", "17", usable_cpus())
    code, output = _run_until_exit(manifest, {"EXECUTOR": "virtual"}, free_port())
    assert code == 2, output
    assert any(line.startswith("httplab") and "EXECUTOR=virtual needs Java 21" in line
               for line in output.splitlines()), output


def _run_until_exit(manifest, env_changes: dict[str, str], port: int) -> tuple[int | None, str]:
    env = {**server_environment(manifest, port), **env_changes}
    return run_until_exit(java_command(_java(manifest), manifest, _jar(manifest)), env,
                          FAULT_EXIT_WAIT_S)


@pytest.mark.slow
@pytest.mark.parametrize("name", SERVERS)
@pytest.mark.parametrize("variable, value", [("PORT", "eighty"), ("PORT", "70000"),
                                             ("WORKERS", "0"), ("WORKERS", "-3"),
                                             ("EXECUTOR", "green")])
def test_bad_setting_exits_2_naming_the_variable(manifests, name, variable, value):
    code, output = _run_until_exit(_manifest(manifests, name), {variable: value}, free_port())
    assert code == 2, output
    assert any(line.startswith("httplab") and variable in line for line in output.splitlines()), output


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
