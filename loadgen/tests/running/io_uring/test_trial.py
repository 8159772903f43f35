"""The try before any load with stand-ins for docker and java: the engine's own profile
first, the shipped one only if that refuses io_uring, one line naming the setting if both
do; on the host, a java that prints what the probe would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from httplab.model import ENGINE_SECCOMP
from httplab.running.backend_error import BackendError
from httplab.running.io_uring.probe import SHIPPED_PROFILE
from httplab.running.io_uring.trial import probe_server, run_here, try_in_containers, try_on_host

IMAGE = "httplab/netty:jdk25"
SHIPPED = Path("/lab") / SHIPPED_PROFILE
CAUSE = "java.lang.RuntimeException: failed to create io_uring ring fd: Operation not permitted"


class StandInDocker:
    """`docker run`: the probe answers available under the profiles in `allowed` (None: the
    engine's own), `cat` prints the kernel setting."""

    def __init__(self, allowed: set[Path | None], kernel: str = "0\n"):
        self.allowed, self.kernel, self.commands = allowed, kernel, []

    def __call__(self, command: list[str]) -> subprocess.CompletedProcess[str]:
        self.commands.append(command)
        if command[command.index("--entrypoint") + 1] == "cat":
            return subprocess.CompletedProcess(command, 0, self.kernel, "")
        options = command[:command.index("--entrypoint")]
        profile = next((Path(option.removeprefix("seccomp=")) for option in options
                        if option.startswith("seccomp=")), None)
        if profile in self.allowed:
            return subprocess.CompletedProcess(command, 0, "io_uring available\n", "")
        return subprocess.CompletedProcess(command, 1, f"io_uring unavailable: {CAUSE}\n", "")


def _profiles_tried(docker: StandInDocker) -> list[str | None]:
    tried = []
    for command in docker.commands:
        assert command[:5] == ["docker", "run", "--rm", "--network", "none"] and IMAGE in command
        tried.append(command[6] if command[5] == "--security-opt" else None)
    return tried


def test_an_engine_whose_own_profile_allows_io_uring_is_asked_once():
    docker = StandInDocker({None})
    assert try_in_containers(docker, IMAGE, SHIPPED) == ENGINE_SECCOMP
    assert _profiles_tried(docker) == [None]
    assert docker.commands[0][-5:] == ["java", IMAGE, "-cp", "/app/server.jar",
                                       "httplab.netty.IoUringProbe"]


def test_an_engine_whose_own_profile_blocks_it_gives_io_uring_cells_the_shipped_one():
    docker = StandInDocker({SHIPPED})
    assert try_in_containers(docker, IMAGE, SHIPPED) == SHIPPED_PROFILE.name
    assert _profiles_tried(docker) == [None, f"seccomp={SHIPPED}"]


@pytest.mark.parametrize("kernel, named", [("2\n", "kernel.io_uring_disabled=2"),
                                           ("0\n", "the Docker engine refuses it")])
def test_refused_under_both_stops_with_one_line_naming_the_setting(kernel, named):
    docker = StandInDocker(set(), kernel)
    with pytest.raises(BackendError) as raised:
        try_in_containers(docker, IMAGE, SHIPPED)
    assert "\n" not in str(raised.value) and named in str(raised.value)
    assert CAUSE in str(raised.value)
    assert _profiles_tried(docker) == [None, f"seccomp={SHIPPED}", None]
    assert docker.commands[-1][-2:] == [IMAGE, "/proc/sys/kernel/io_uring_disabled"]


def _stand_in_java(folder: Path, line: str, code: int) -> str:
    java = folder / "java"
    java.write_text(f"#!{sys.executable}\nimport sys\n"
                    "assert sys.argv[1:3] == ['-cp', sys.argv[2]] and "
                    "sys.argv[3] == 'httplab.netty.IoUringProbe', sys.argv\n"
                    f"print({line!r})\nsys.exit({code})\n")
    java.chmod(0o755)
    return str(java)


def test_on_the_host_an_available_io_uring_passes(tmp_path):
    try_on_host(run_here, _stand_in_java(tmp_path, "io_uring available", 0), tmp_path / "n.jar")


@pytest.mark.parametrize("setting, named", [("2\n", "kernel.io_uring_disabled=2"),
                                            ("0\n", "kernel.io_uring_disabled=0"),
                                            (None, "kernel.io_uring_disabled=absent")])
def test_on_the_host_a_refusal_is_one_line_naming_the_setting(tmp_path, setting, named):
    kernel = tmp_path / "io_uring_disabled"
    if setting is not None:
        kernel.write_text(setting)
    java = _stand_in_java(tmp_path, f"io_uring unavailable: {CAUSE}", 1)
    with pytest.raises(BackendError) as raised:
        try_on_host(run_here, java, tmp_path / "n.jar", kernel)
    assert "\n" not in str(raised.value) and named in str(raised.value)
    assert str(raised.value).startswith("io_uring cannot start on this host")


def test_a_java_that_cannot_run_is_one_line(tmp_path):
    with pytest.raises(BackendError) as raised:
        try_on_host(run_here, str(tmp_path / "no-java"), tmp_path / "n.jar")
    assert "\n" not in str(raised.value) and "the io_uring probe could not run" in str(raised.value)


def test_the_probe_comes_from_the_runs_netty_else_the_repositorys(repo, manifests):
    netty = next(manifest for manifest in manifests if manifest.name == "netty")
    on_jdk17 = netty.on_axis("JDK", "17", None)
    assert probe_server((on_jdk17,), repo / "servers") is on_jdk17
    others = tuple(manifest for manifest in manifests if manifest.name != "netty")
    assert probe_server(others, repo / "servers") == netty
