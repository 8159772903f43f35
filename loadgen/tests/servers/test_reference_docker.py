"""The ceiling reference in a container: the docker backend builds servers/nginx/Dockerfile
(with the local base images where no registry answers), serves it once through the
lab's Compose file, and it must pass the whole check there, with the image's nginx at
the manifest's version and no JVM reported."""

from __future__ import annotations

import subprocess

import pytest

from httplab.checking.conformance import verify_started
from httplab.running.backends.docker import DockerBackend

from tests.conftest import port_is_listening
from tests.docker_support import engine_problem, require
from tests.servers.test_versions import nginx_version

IMAGE = "httplab/nginx:latest"


@pytest.fixture(scope="module")
def built(repo, manifests):
    """The docker backend, with the reference's image built; and the reference."""
    require(engine_problem())
    reference = next(m for m in manifests if m.is_reference)
    backend = DockerBackend(repo)
    backend.check_available()
    backend.prepare((reference,))
    return backend, reference


@pytest.mark.docker
@pytest.mark.slow
def test_the_image_runs_the_manifests_nginx_as_uid_10001(built):
    _, reference = built
    run = subprocess.run(["docker", "run", "--rm", "--network", "none", "--entrypoint", "sh",
                          IMAGE, "-c", "id -u; nginx -v; cat /app/server.toml"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "10001"
    assert nginx_version(run.stderr) == reference.version
    assert 'role = "reference"' in run.stdout


@pytest.mark.docker
@pytest.mark.slow
def test_the_docker_backend_serves_nginx_and_it_passes_the_check(built, tmp_path):
    backend, reference = built
    assert not port_is_listening(reference.port), \
        f"port {reference.port} is busy before the test; free it first"
    log = tmp_path / "nginx.log"
    with backend.serve(reference, None, log) as started:
        verification = verify_started(started.startup, reference, reference.port)
        assert verification.passed, verification.summary()
        assert started.startup.bind == f"127.0.0.1:{reference.port}"
        assert started.java_version is None and started.image_id
        assert backend.exit_status(started) is None
    assert "httplab-ready framework=nginx" in log.read_text()
    assert not port_is_listening(reference.port)
