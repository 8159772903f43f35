"""The docker backend's profiler control against a real server image: jattach in the
container, the event chosen there, one profiled stretch of load, the files copied out to
raw/ and none left in the container. The container runs on a free port (never 8080),
started here with `docker run` as Compose would, host networking and the image's user."""

from __future__ import annotations

import json
import subprocess
import time
import uuid
from dataclasses import replace

import pytest

from httplab.model import CPU_PROFILE_EVENTS
from httplab.results.profile_record import record_from_dict
from httplab.run_layout import RunFiles
from httplab.running.backends.docker_profiler import DockerProfilerControl
from httplab.running.docker.remote import engine_env
from httplab.running.profiling.attach import attach
from httplab.running.profiling.jvm import jvm_options
from httplab.running.profiling.session import profiled

from tests.conftest import free_port, port_is_listening
from tests.docker_support import (default_server_image, engine_problem, first_present_image,
                                  require)

IMAGE = default_server_image("netty")


@pytest.fixture()
def netty_container(manifests):
    require(engine_problem())
    if first_present_image(IMAGE) is None:
        pytest.skip(f"{IMAGE} is not built: make bench builds it")
    netty = next(m for m in manifests if m.name == "netty").for_profile(True)
    port, name = free_port(), f"httplab-profile-test-{uuid.uuid4().hex[:8]}"
    subprocess.run(["docker", "run", "-d", "--rm", "--name", name, "--network", "host",
                    "-e", f"PORT={port}", "-e", "BIND_ADDRESS=127.0.0.1",
                    "-e", f"JAVA_OPTS={jvm_options(netty)}", IMAGE],
                   check=True, capture_output=True)
    try:
        deadline = time.monotonic() + 60
        while not port_is_listening(port):
            assert time.monotonic() < deadline, "the server did not listen within 60 s"
            time.sleep(0.2)
        yield name, replace(netty, port=port)
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True)


@pytest.mark.slow
@pytest.mark.docker
def test_a_container_is_profiled_and_its_files_come_back_to_raw(netty_container, tmp_path):
    container, netty = netty_container
    control = DockerProfilerControl(container, engine_env(None))
    attached = attach(control, "cpu")
    event = attached.profiler.event
    assert event in CPU_PROFILE_EVENTS
    if event == "itimer":
        assert "the container may not open perf events" in attached.note
    files = RunFiles(tmp_path / "netty+profiled-t1-c10")
    load = ["wrk", "-t1", "-c10", "-d2s", f"http://127.0.0.1:{netty.port}/"]
    done, outcome = profiled(attached.profiler, files,
                             lambda: subprocess.run(load, capture_output=True, timeout=30))
    assert done.returncode == 0 and outcome.failure is None
    record = record_from_dict(json.loads(files.profile.read_text()))
    assert (record.event, record.failure, record.collapsed) == (
        event, None, "netty+profiled-t1-c10.collapsed.txt")
    stacks = files.collapsed.read_text()
    assert "io/netty/" in stacks and sum(int(line.rsplit(" ", 1)[1])
                                         for line in stacks.splitlines()) > 50
    assert "</html>" in files.flame_graph.read_text()
    left = subprocess.run(["docker", "exec", container, "ls", "/tmp"], capture_output=True,
                          text=True, check=True).stdout
    assert "netty+profiled" not in left, f"left in the container's /tmp: {left}"
