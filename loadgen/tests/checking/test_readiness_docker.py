"""The readiness rule in containers: the real Netty image, its output passed through a filter
that holds the httplab-ready line back (5 s, or for ever), from a Compose file of the test's
own. The docker backend must wait for the line, or fail naming it, and keep the whole log."""

from __future__ import annotations

import pytest

from httplab.running.backend_error import BackendError
from httplab.running.backends.docker import DockerBackend
from httplab.checking.conformance import verify_started

from tests.conftest import port_is_listening
from tests.docker_support import default_server_image, engine_problem, require

# Run java with its output through a filter; SIGTERM is passed on to java.
FILTERED_ENTRYPOINT = (
    "java -jar /app/server.jar > >({filter}) 2>&1 & pid=$$!; "
    "trap 'kill $$pid' TERM; wait $$pid; wait $$pid")
HOLD_BACK = ("while IFS= read -r line; do case $$line in *httplab-ready*) sleep 5;; esac; "
             "printf '%s\\n' \"$$line\"; done")
DROP = "grep --line-buffered -v httplab-ready"
# The backend's one `server` service, as in the lab's own Compose file; the port is the
# image's (its manifest's).
COMPOSE = """services:
  server:
    image: {image}
    network_mode: host
    environment: {{BIND_ADDRESS: 127.0.0.1}}
    entrypoint: ["/bin/bash", "-c", "{entrypoint}"]
"""


def _backend_with_filter(tmp_path, repo, filter_command: str,
                         ready_timeout_s: float) -> DockerBackend:
    entrypoint = FILTERED_ENTRYPOINT.format(filter=filter_command).replace('"', '\\"')
    compose = COMPOSE.format(entrypoint=entrypoint, image=default_server_image("netty"))
    (tmp_path / "docker-compose.yml").write_text(compose)
    backend = DockerBackend(tmp_path, ready_timeout_s=ready_timeout_s)
    backend.check_available()
    return backend


@pytest.fixture
def netty(repo, manifests):
    require(engine_problem())
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    manifest = next(m for m in manifests if m.name == "netty")
    builder = DockerBackend(repo)
    builder.check_available()
    builder.prepare((manifest,))  # cached: about a second when the image exists
    return manifest


@pytest.mark.docker
@pytest.mark.slow
def test_a_container_whose_ready_line_comes_5_s_late_is_waited_for(tmp_path, repo, netty):
    backend = _backend_with_filter(tmp_path, repo, HOLD_BACK, ready_timeout_s=120)
    log = tmp_path / "netty.log"
    with backend.serve(netty, None, log) as started:
        assert started.startup is not None
        verification = verify_started(started.startup, netty, netty.port)
        assert verification.passed, verification.summary()
    assert "httplab-ready" in log.read_text()
    assert not port_is_listening(8080)


@pytest.mark.docker
@pytest.mark.slow
def test_a_container_that_never_prints_its_ready_line_fails_naming_it(tmp_path, repo, netty):
    backend = _backend_with_filter(tmp_path, repo, DROP, ready_timeout_s=15)
    log = tmp_path / "netty.log"
    with pytest.raises(BackendError, match=r"^netty answered correctly after [\d.]+ s but printed "
                                           r"no httplab-ready line within 15 s; last output"):
        with backend.serve(netty, None, log):
            pytest.fail("a server without its ready line must not count as ready")
    assert log.is_file()
    assert not port_is_listening(8080)
