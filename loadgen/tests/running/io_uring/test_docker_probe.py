"""In Docker (engine needed): the try on this engine, the shipped profile opening what
Docker 25's default closes, and Compose (v1 and v2) giving a container the shipped profile
through its override file only. Where the kernel refuses io_uring, the probe's tests skip
saying so."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from httplab.model import ENGINE_SECCOMP
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.running.backends.docker import DockerBackend
from httplab.running.docker import compose as cmd
from httplab.running.docker.containers import run_docker
from httplab.running.io_uring.probe import SHIPPED_PROFILE
from httplab.running.io_uring.trial import container_command, probe_in_container, probe_server
from httplab.running.jdks import server_jdk

from tests.docker_support import engine_problem, require
from tests.support.io_uring import require_io_uring

PROJECT = "httplab-seccomp-test"  # not the lab's own project, which a run may be using
COMPOSES = {"v2": ["docker", "compose"], "v1": ["docker-compose"]}
CALLS = ("io_uring_enter", "io_uring_register", "io_uring_setup")


@pytest.fixture(scope="module")
def netty_image() -> tuple[DockerBackend, str]:
    """A backend that answers, and the Netty image (built when missing or stale)."""
    require(engine_problem())
    backend = DockerBackend(DEFAULT_REPO)
    backend.check_available()
    netty = probe_server((), servers_dir(DEFAULT_REPO))
    env = {**os.environ, **backend.server_environment(netty.name)}
    return backend, backend.images.build_server(backend.compose, netty, server_jdk(netty), env)


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return run_docker(command)


@pytest.mark.docker
def test_the_shipped_profile_opens_what_dockers_default_since_25_closes(netty_image):
    require_io_uring()
    _, image = netty_image
    folder = DEFAULT_REPO / SHIPPED_PROFILE.parent
    closed = probe_in_container(_run, image, folder / "default.json")
    assert not closed.available and "Operation not permitted" in closed.cause, closed
    assert probe_in_container(_run, image, DEFAULT_REPO / SHIPPED_PROFILE).available


@pytest.mark.docker
def test_the_try_keeps_the_profile_this_engine_needs(netty_image):
    require_io_uring()
    backend, image = netty_image
    engine_allows = probe_in_container(_run, image).available
    said = backend.try_io_uring(())
    assert backend.io_uring_seccomp == (ENGINE_SECCOMP if engine_allows else SHIPPED_PROFILE.name)
    assert said.startswith("io_uring: ") and "\n" not in said


@pytest.mark.docker
def test_the_probe_container_has_no_network_and_is_removed(netty_image):
    _, image = netty_image
    named = ["docker", "run", "--name", f"{PROJECT}-probe",
             *container_command(image, None, "ls", "/sys/class/net")[2:]]
    listed = run_docker(named)
    assert listed.returncode == 0 and listed.stdout.split() == ["lo"], listed
    assert run_docker(["docker", "container", "inspect", f"{PROJECT}-probe"]).returncode != 0


def _security_options(compose: list[str], image: str, seccomp: bool) -> list[str]:
    """The container Compose creates (not started) for the server service: its SecurityOpt."""
    env = {**os.environ, **cmd.server_environment("netty"),
           "HTTPLAB_IMAGE_TAG": image.rsplit(":", 1)[1],
           **cmd.seccomp_environment(DEFAULT_REPO / SHIPPED_PROFILE if seccomp else None)}
    base = cmd.base_command(compose, DEFAULT_REPO, project=PROJECT,
                            overrides=(cmd.SECCOMP_FILE,) if seccomp else ())
    try:
        created = run_docker([*base, "up", "--no-start", "--no-build", "server"], env)
        assert created.returncode == 0, created.stderr
        container = run_docker([*base, "ps", "-a", "-q", "server"], env).stdout.split()[0]
        options = run_docker(["docker", "inspect", "-f", "{{json .HostConfig.SecurityOpt}}",
                              container]).stdout
        return json.loads(options) or []
    finally:
        run_docker([*base, "down", "--remove-orphans", "-t", "1"], env)


@pytest.mark.docker
@pytest.mark.parametrize("version", sorted(COMPOSES))
def test_compose_sends_the_shipped_profile_only_with_its_override(netty_image, version):
    compose = COMPOSES[version]
    if subprocess.run([*compose, "version"], capture_output=True).returncode != 0:
        pytest.skip(f"`{' '.join(compose)}` is not installed")
    _, image = netty_image
    assert _security_options(compose, image, seccomp=False) == []
    option, = _security_options(compose, image, seccomp=True)
    # Both Compose versions read the file and send its content, as the docker CLI does.
    assert option.startswith("seccomp=")
    sent = json.loads(option.removeprefix("seccomp="))
    assert sent == json.loads((DEFAULT_REPO / SHIPPED_PROFILE).read_text())
    assert set(CALLS) <= set(sent["syscalls"][0]["names"])
