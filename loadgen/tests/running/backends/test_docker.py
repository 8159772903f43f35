"""The docker backend's load tool runs, their Compose command lines taken before any
container would start: each tool through cpu-times.sh, its CPU record named beside the
tool's own output (run_layout), in the raw folder that is mounted."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from httplab.loadtools.h2load.command import H2loadRequest
from httplab.loadtools.h2load.measured_command import H2loadRunRequest
from httplab.loadtools.oha.command import OhaRequest
from httplab.loadtools.wrk.command import WrkRequest
from httplab.running.backends import docker
from httplab.running.backends.base import WrkOutcome
from httplab.running.backends.docker import DockerBackend

URL = "http://127.0.0.1:8080/"


@pytest.fixture
def runs(monkeypatch):
    """What the backend hands run_loadgen: the command, the environment, the CPU record."""
    taken = []

    def run_loadgen(command, name, env, stdout, limit, cpu_times):
        taken.append((command, env, cpu_times))
        return WrkOutcome(0, "", cpu_seconds=1.5)
    monkeypatch.setattr(docker, "run_loadgen", run_loadgen)
    return taken


@pytest.fixture
def backend(repo) -> DockerBackend:
    backend = DockerBackend(repo)
    backend.compose, backend.serving = ["docker", "compose"], "netty"
    return backend


@pytest.mark.parametrize("run, record, tool", [
    (lambda backend, raw: backend.run_wrk(WrkRequest(1, 4, "5s", 5, URL), raw / "netty-t1-c4.txt",
                                          raw / "netty-t1-c4.json"),
     "netty-t1-c4.wrk.cpu.txt", "wrk"),
    (lambda backend, raw: backend.run_h2load(H2loadRequest(1, 4, 5, URL), raw / "netty-t1-c4",
                                             8080),
     "netty-t1-c4.h2load.cpu.txt", "/opt/httplab/fairness.sh"),
    (lambda backend, raw: backend.run_oha(OhaRequest(100, 5, 4, URL),
                                          raw / "netty-q100.oha.json"),
     "netty-q100.oha.cpu.txt", "/usr/local/bin/oha"),
    (lambda backend, raw: backend.run_h2load_bench(
        H2loadRunRequest(1, 4, 2, 5, URL, str(raw / "netty@h2c-t1-c4.h2load-requests.tsv")),
        raw / "netty@h2c-t1-c4.h2load-run.txt"),
     "netty@h2c-t1-c4.h2load.cpu.txt", "h2load"),
], ids=["wrk", "h2load", "oha", "h2load-bench"])
def test_each_tool_runs_under_cpu_times_sh_and_hands_on_its_cpu_time(tmp_path, backend, runs,
                                                                    run, record, tool):
    outcome = run(backend, tmp_path)
    (command, env, cpu_times), = runs
    at = command.index("--entrypoint")
    assert command[at:at + 5] == ["--entrypoint", "/opt/httplab/cpu-times.sh", "wrk",
                                  f"/out/{record}", tool]
    assert cpu_times == tmp_path / record
    assert Path(env["HTTPLAB_RAW_DIR"]) == tmp_path.resolve()  # what /out is
    assert outcome.cpu_seconds == 1.5


def test_h2load_logs_into_the_mount_and_its_summary_names_its_arguments(tmp_path, backend, runs):
    summary = tmp_path / "netty@h2-t1-c4.h2load-run.txt"
    backend.run_h2load_bench(H2loadRunRequest(
        1, 4, 2, 5, "https://127.0.0.1:8443/",
        str(tmp_path / "netty@h2-t1-c4.h2load-requests.tsv")), summary)
    (command, _, _), = runs
    arguments = ["-t1", "-c4", "-m2", "-D5", "--log-file=/out/netty@h2-t1-c4.h2load-requests.tsv",
                 "https://127.0.0.1:8443/"]
    assert command[-len(arguments):] == arguments
    assert summary.read_text() == ("# httplab: h2load -t1 -c4 -m2 -D5 "
                                   "--log-file=/out/netty@h2-t1-c4.h2load-requests.tsv "
                                   "https://127.0.0.1:8443/\n")


def test_oha_on_https_gets_the_runs_ca_mounted(tmp_path, backend, runs):
    backend.run_oha(OhaRequest(100, 5, 4, "https://127.0.0.1:8443/", ca_file="/run/t/ca.pem"),
                    tmp_path / "netty@h1-tls-q100.oha.json")
    (command, _, _), = runs
    assert "/run/t/ca.pem:/run/t/ca.pem:ro" in command
    assert command[command.index("--cacert") + 1] == "/run/t/ca.pem"


def test_a_server_beside_another_starts_on_its_port_in_its_own_project(backend, manifests,
                                                                        monkeypatch):
    """make pairing-study's two sides at once: the second backend shares the first's images
    and Compose, and its server goes up, is found and comes down in a project of its own."""
    commands = []

    def run_docker(command, env=None, timeout=None):
        commands.append((command, env))
        return subprocess.CompletedProcess(command, 0, "c0ffee\n", "")
    monkeypatch.setattr(docker, "run_docker", run_docker)
    other = backend.beside("httplab-b")
    assert other.images is backend.images and other.compose == backend.compose
    assert other.serving is None and backend.project == "httplab"
    netty = replace(next(one for one in manifests if one.name == "netty"), port=18082)
    assert other._start(netty, None, None)[0] == "c0ffee"
    (up, up_env), (ps, _) = commands
    assert up[up.index("-p") + 1] == ps[ps.index("-p") + 1] == "httplab-b"
    assert up_env["HTTPLAB_PORT"] == "18082"


@pytest.mark.parametrize("down, removed_by_id", [
    (lambda command: subprocess.CompletedProcess(command, 0, "", ""), False),
    (lambda command: subprocess.CompletedProcess(command, 1, "", "context deadline exceeded"),
     True),
    (lambda command: (_ for _ in ()).throw(docker.BackendError("down did not finish")), True),
])
def test_a_container_that_down_left_is_removed_by_its_id(backend, monkeypatch, down,
                                                        removed_by_id):
    """A busy engine's failed or hung `down` must not leave the server holding its port."""
    commands = []

    def run_docker(command, env=None, timeout=None):
        commands.append(command)
        return down(command) if "down" in command else subprocess.CompletedProcess(
            command, 0, "", "")
    monkeypatch.setattr(docker, "run_docker", run_docker)
    backend._down("netty", "c0ffee")
    assert (["docker", "rm", "-f", "c0ffee"] in commands) is removed_by_id
    assert "down" in commands[0]
