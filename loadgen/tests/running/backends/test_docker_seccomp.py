"""TRANSPORT=io_uring in containers, opened narrowly: the docker backend starts an io_uring
server with the shipped seccomp profile (Compose's override file and its variable) only when
the try found that the engine's own blocks io_uring; every other server never gets it, and
each records the profile it ran under."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from httplab.model import ENGINE_SECCOMP
from httplab.running.backends import docker
from httplab.running.backends.base import StartedServer
from httplab.running.backends.docker import DockerBackend
from httplab.running.docker.compose import SECCOMP_FILE, SECCOMP_VARIABLE
from httplab.running.io_uring.probe import SHIPPED_PROFILE

SHIPPED = SHIPPED_PROFILE.name


@pytest.fixture
def calls(monkeypatch):
    """Every docker command the backend runs, with its environment; each answers a container id."""
    taken = []

    def run_docker(command, env=None, timeout=120, error=None):
        taken.append((command, env or {}))
        return subprocess.CompletedProcess(command, 0, "c0ffee\n", "")
    monkeypatch.setattr(docker, "run_docker", run_docker)
    return taken


@pytest.fixture
def backend(repo, monkeypatch) -> DockerBackend:
    """A backend whose container is up at once: no log to follow, ready, described bare."""
    backend = DockerBackend(repo)
    backend.compose = ["docker", "compose"]
    monkeypatch.setattr(docker, "ensure_port_free", lambda port, host: None)
    monkeypatch.setattr(docker, "ServerProcess", lambda *args, **kwargs: SimpleNamespace(
        stop=lambda let_finish_s: None, output=lambda: ""))
    monkeypatch.setattr(backend, "_wait_ready", lambda manifest, container, follower:
                        SimpleNamespace(first_answer_s=0.1, startup=None))
    monkeypatch.setattr(backend, "_describe", lambda manifest, image, container, seconds,
                        startup, log_path: StartedServer(manifest, None, seconds,
                                                         container=container))
    return backend


def _netty(manifests, transport):
    return next(m for m in manifests if m.name == "netty").on_axis("TRANSPORT", transport, None)


def _served(backend, manifest, calls):
    with backend.serve(manifest) as started:
        up = next((command, env) for command, env in calls if "up" in command)
    return started, up


@pytest.mark.parametrize("transport", ["epoll", "nio"])
def test_a_cell_not_on_io_uring_never_gets_the_profile(backend, calls, manifests, transport):
    backend.io_uring_seccomp = SHIPPED  # even where the engine's own blocks io_uring
    started, (command, env) = _served(backend, _netty(manifests, transport), calls)
    assert started.seccomp == ENGINE_SECCOMP
    assert not any(SECCOMP_FILE in part for part in command) and SECCOMP_VARIABLE not in env
    assert env["HTTPLAB_TRANSPORT"] == transport


def test_an_io_uring_cell_where_the_engine_blocks_it_runs_under_the_shipped_profile(
        backend, calls, manifests, repo):
    backend.io_uring_seccomp = SHIPPED
    started, (command, env) = _served(backend, _netty(manifests, "io_uring"), calls)
    assert started.seccomp == SHIPPED
    files = [command[at + 1] for at, part in enumerate(command) if part == "-f"]
    assert files == [str(repo / "docker-compose.yml"), str(repo / SECCOMP_FILE)]
    assert Path(env[SECCOMP_VARIABLE]).is_absolute()
    assert Path(env[SECCOMP_VARIABLE]) == (repo / SHIPPED_PROFILE).resolve()
    assert Path(env[SECCOMP_VARIABLE]).is_file() and (repo / SECCOMP_FILE).is_file()
    # Its down and ps need no override: the project and its service are the same.
    assert all(SECCOMP_FILE not in " ".join(command) for command, _ in calls
               if "up" not in command)


def test_an_io_uring_cell_where_the_engine_allows_it_keeps_the_engines_profile(
        backend, calls, manifests):
    assert backend.io_uring_seccomp == ENGINE_SECCOMP  # until the try says otherwise
    started, (command, env) = _served(backend, _netty(manifests, "io_uring"), calls)
    assert started.seccomp == ENGINE_SECCOMP
    assert not any(SECCOMP_FILE in part for part in command) and SECCOMP_VARIABLE not in env


@pytest.mark.parametrize("allowed, chosen", [({None}, ENGINE_SECCOMP), ({"shipped"}, SHIPPED)])
def test_the_try_keeps_the_profile_io_uring_cells_run_under(backend, monkeypatch, repo,
                                                            allowed, chosen):
    def run_docker(command, env=None, timeout=120, error=None):
        profile = "shipped" if "--security-opt" in command else None
        if profile:
            at = command.index("--security-opt") + 1
            assert command[at] == f"seccomp={(repo / SHIPPED_PROFILE).resolve()}"
        said = "io_uring available" if profile in allowed else "io_uring unavailable: EPERM"
        return subprocess.CompletedProcess(command, 0 if profile in allowed else 1, said, "")
    monkeypatch.setattr(docker, "run_docker", run_docker)
    monkeypatch.setattr(backend, "_probe_image", lambda servers: "httplab/netty:jdk25")
    said = backend.try_io_uring(())
    assert backend.io_uring_seccomp == chosen and said.startswith("io_uring: ")
