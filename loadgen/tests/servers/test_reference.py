"""The ceiling reference, nginx, on this host (BACKEND=local): started by its start script
on 127.0.0.1 at a free port, it must pass the lab's whole check as the jars do, stop on
SIGTERM, and refuse bad settings as they do. It serves every PROTOCOL, TLS with files made
here as the lab makes them. Without the host's nginx the slow tests skip (apt-get install
nginx-light); the docker test builds it into an image instead."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from httplab.axes import H1_TLS, TLS_PROTOCOLS
from httplab.checking.conformance import protocol_said_problem, verify_started
from httplab.checking.ready_line import StartupInfo
from httplab.model import Workload
from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, LUA_SCRIPT, servers_dir
from httplab.running.backends.base import StartedServer
from httplab.running.backend_error import BackendError
from httplab.running.backends.local import (HOST_NGINX, REFERENCE_START_SCRIPT, LocalBackend,
                                            reference_command, reference_environment,
                                            run_reference)
from httplab.running.hostinfo import usable_cpus
from httplab.running.process import ServerProcess
from httplab.running.tls.certificates import make_run_tls, remove_run_tls
from httplab.running.resources.probes import UnavailableProbe

from tests.conftest import free_port, port_is_listening, run_until_exit
from tests.support.tls_files import CURL_PROTOCOL, TlsTestFiles, curl, make_tls_files

NGINX = next(m for m in discover(servers_dir(DEFAULT_REPO)) if m.is_reference)
SCRIPT = servers_dir(DEFAULT_REPO) / NGINX.name / REFERENCE_START_SCRIPT
STOP_LIMIT_S = 5.0
FAULT_EXIT_WAIT_S = 30.0


def _require_nginx() -> None:
    if not HOST_NGINX.is_file():
        pytest.skip(f"{HOST_NGINX} is not installed: apt-get install nginx-light")


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory) -> TlsTestFiles:
    return make_tls_files(tmp_path_factory.mktemp("tls"))


def test_the_reference_is_nginx_and_no_maven_module():
    assert (NGINX.name, NGINX.framework, NGINX.server_header) == ("nginx", "nginx", "nginx")
    assert NGINX.is_reference and not NGINX.is_maven_module
    assert NGINX.workers == "cpus" and NGINX.transport == "epoll"
    assert SCRIPT.is_file()


def test_the_reference_dockerfile_keeps_the_lab_images_promises():
    text = (SCRIPT.parent / "Dockerfile").read_text()
    # The base as the Java servers take theirs: a build arg, the official default in FROM;
    # Debian's package only where the base lacks nginx (the local base).
    assert f"ARG NGINX_IMAGE\nFROM ${{NGINX_IMAGE:-nginx:{NGINX.version}}}\n" in text
    assert "if ! command -v nginx >/dev/null; then" in text
    assert '"nginx=$NGINX_PACKAGE_VERSION"' in text
    assert "STOPSIGNAL SIGTERM" in text  # the official image's SIGQUIT would reach bash
    assert "COPY nginx/server.toml /app/server.toml" in text  # the healthcheck reads its port
    assert "USER 10001:10001" in text
    assert 'ENTRYPOINT ["bash", "/app/start.sh"]' in text


def test_the_local_backend_names_the_package_when_nginx_is_missing(tmp_path):
    backend = LocalBackend(servers_dir(DEFAULT_REPO), LUA_SCRIPT, nginx=tmp_path / "nginx")
    with pytest.raises(BackendError, match=r"nginx not found at .*apt-get install nginx-light"):
        backend.prepare((NGINX,))


def test_the_local_backend_does_not_measure_nginx_by_one_process():
    backend = LocalBackend(servers_dir(DEFAULT_REPO), LUA_SCRIPT)
    probe = backend.resource_probe(StartedServer(NGINX, None, None, pid=1))
    assert isinstance(probe, UnavailableProbe) and "worker processes" in probe.reason


@pytest.mark.slow
def test_nginx_passes_the_conformance_check_and_stops_on_sigterm():
    _require_nginx()
    port = free_port()
    with run_reference(NGINX, SCRIPT, port) as (process, startup, _):
        verification = verify_started(startup, NGINX, port, cpus=usable_cpus(),
                                      workloads=(Workload("json"),))  # its only one beyond /
        assert not verification.failures, verification.summary()
        assert startup.framework == "nginx" and startup.bind == f"127.0.0.1:{port}"
        stop_seconds = process.stop()
    assert stop_seconds < STOP_LIMIT_S, f"SIGTERM took {stop_seconds:.1f} s"
    assert not port_is_listening(port)


@pytest.mark.shared_host
@pytest.mark.slow
def test_the_local_backend_serves_nginx_with_no_jvm(tmp_path):
    _require_nginx()
    backend = LocalBackend(servers_dir(DEFAULT_REPO), LUA_SCRIPT)
    backend.prepare((NGINX,))
    if port_is_listening(NGINX.port):
        pytest.skip(f"port {NGINX.port} is busy")
    log = tmp_path / "nginx.log"
    with backend.serve(NGINX, log_path=log) as started:
        assert started.startup.workers == usable_cpus() and started.java_version is None
        assert backend.exit_status(started) is None
    assert "httplab-ready framework=nginx" in log.read_text()
    assert not port_is_listening(NGINX.port)


def _run_until_exit(env_changes: dict[str, str], port: int, tmp_path) -> tuple[int | None, str]:
    env = {**reference_environment(NGINX, port, HOST_NGINX, tmp_path), **env_changes}
    return run_until_exit(reference_command(SCRIPT), env, FAULT_EXIT_WAIT_S)


@pytest.mark.slow
@pytest.mark.parametrize("variable, value", [("PORT", "eighty"), ("PORT", "70000"),
                                             ("WORKERS", "0"), ("WORKERS", "-3"),
                                             ("BIND_ADDRESS", " "), ("PROTOCOL", "h3"),
                                             ("PROTOCOL", "https")])
def test_bad_setting_exits_2_naming_the_variable(variable, value, tmp_path):
    _require_nginx()
    code, output = _run_until_exit({variable: value}, free_port(), tmp_path)
    assert code == 2, output
    assert any(line.startswith("httplab") and variable in line for line in output.splitlines()), output


@pytest.mark.slow
def test_port_in_use_exits_non_zero_with_a_clear_line(tmp_path):
    _require_nginx()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        code, output = _run_until_exit({}, holder.getsockname()[1], tmp_path)
    assert code not in (None, 0), output
    assert any(line.startswith("httplab") and "in use" in line for line in output.splitlines()), output


@pytest.mark.slow
def test_workers_sets_the_worker_processes_it_reports(tmp_path):
    _require_nginx()
    port = free_port()
    env = {**reference_environment(NGINX, port, HOST_NGINX, tmp_path), "WORKERS": "3"}
    process = ServerProcess(reference_command(SCRIPT), env)
    try:
        startup = process.wait_ready(FAULT_EXIT_WAIT_S)
        assert startup is not None, process.output()
        assert (startup.workers, startup.observed_workers) == (3, 3)
    finally:
        process.stop()
    assert not port_is_listening(port)


@contextmanager
def _serving(protocol: str, tls: TlsTestFiles, tmp_path) -> Iterator[tuple[int, StartupInfo]]:
    """nginx started on the protocol at a free port: the port and its ready line."""
    _require_nginx()
    port = free_port()
    env = {**reference_environment(NGINX, port, HOST_NGINX, tmp_path), "PROTOCOL": protocol,
           **tls.environment}
    process = ServerProcess(reference_command(SCRIPT), env)
    try:
        startup = process.wait_ready(FAULT_EXIT_WAIT_S)
        assert startup is not None, process.output()
        yield port, startup
    finally:
        process.stop()
    assert not port_is_listening(port)


@pytest.mark.slow
@pytest.mark.parametrize("protocol", NGINX.protocols)
def test_each_protocol_starts_says_so_answers_in_its_http_version_and_passes_the_healthcheck(
        protocol, tls_files, tmp_path):
    """Its ready line names the protocol and the TLS engine (openssl over TLS, else none),
    and curl, trusting only the run's CA, gets the hello world in that HTTP version. From
    the same start: the Compose healthcheck asks over the protocol (and fails over
    another); on h1-tls, without http2 on its listen, nginx's ALPN offers http/1.1 only,
    so curl offering h2 too gets HTTP/1.1: never upgraded."""
    options, version = CURL_PROTOCOL[protocol]
    with _serving(protocol, tls_files, tmp_path) as (port, startup):
        assert not protocol_said_problem(startup, NGINX.on_axis("PROTOCOL", protocol, None)), \
            startup.line
        assert startup.tls == ("openssl" if protocol in TLS_PROTOCOLS else "none")
        assert curl(protocol, port, tls_files, *options) == f"{version} 200 Hello, World!"
        assert _healthy(protocol, port, tls_files)
        other = {"h1": "h2c", "h1-tls": "h2", "h2c": "h1", "h2": "h2c"}[protocol]
        assert not _healthy(other, port, tls_files), f"{other} answered on a {protocol} port"
        if protocol == H1_TLS:
            assert curl(H1_TLS, port, tls_files, "--http2") == "1.1 200 Hello, World!"


@pytest.mark.slow
@pytest.mark.parametrize("protocol", NGINX.protocols)
def test_nginx_passes_the_conformance_check_on_each_protocol(protocol, tmp_path):
    """The lab's whole check in the protocol served, with the run's own certificates."""
    run_tls = make_run_tls(tmp_path / "run-tls")
    files = TlsTestFiles(run_tls)
    try:
        with _serving(protocol, files, tmp_path) as (port, startup):
            verification = verify_started(startup, NGINX.on_axis("PROTOCOL", protocol, None),
                                          port, cpus=usable_cpus(),
                                          workloads=(Workload("json"),), tls=run_tls)
            assert not verification.failures, verification.summary()
    finally:
        remove_run_tls(run_tls)


def _compose_healthcheck() -> str:
    """The server service's healthcheck script, as Compose hands it to bash ($$ is $)."""
    lines = (DEFAULT_REPO / "docker-compose.yml").read_text().splitlines()
    start = lines.index("        - |") + 1
    end = next(index for index in range(start, len(lines))
               if not lines[index].startswith("          "))
    return "\n".join(line[len("          "):] for line in lines[start:end]).replace("$$", "$")


def _healthy(protocol: str, port: int, tls: TlsTestFiles) -> bool:
    env = {"PATH": os.environ["PATH"], "PORT": str(port), "BIND_ADDRESS": "127.0.0.1",
           "PROTOCOL": protocol, "TLS_CERT": str(tls.certificate)}
    return subprocess.run(["bash", "-c", _compose_healthcheck()], env=env, capture_output=True,
                          timeout=FAULT_EXIT_WAIT_S).returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("protocol", sorted(TLS_PROTOCOLS))
def test_a_tls_protocol_without_tls_cert_exits_2_with_one_line(protocol, tls_files, tmp_path):
    _require_nginx()
    code, output = _run_until_exit({"PROTOCOL": protocol, "TLS_KEY": str(tls_files.key)},
                                   free_port(), tmp_path)
    assert code == 2, output
    assert output.strip().splitlines() == [f"httplab nginx: PROTOCOL={protocol} needs TLS_CERT: "
                                           "the PEM file the lab makes for the run"]


@pytest.mark.slow
def test_a_key_nginx_cannot_use_exits_2_with_nginx_s_reason(tls_files, tmp_path):
    _require_nginx()
    another_runs_key = make_tls_files(tmp_path).key  # not the certificate's
    code, output = _run_until_exit({"PROTOCOL": "h2", "TLS_CERT": str(tls_files.certificate),
                                    "TLS_KEY": str(another_runs_key)},
                                   free_port(), tmp_path)
    assert code == 2, output
    [line] = output.strip().splitlines()
    assert line.startswith("httplab nginx: PROTOCOL=h2: nginx refuses its configuration: "
                           "SSL_CTX_use_PrivateKey("), line
