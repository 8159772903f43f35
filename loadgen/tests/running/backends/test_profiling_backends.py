"""How each backend drives async-profiler: docker exec of the image's jattach against java
(PID 1) and docker cp of its files; the host's jattach against the java process and its
files written straight into raw/; and the checks before any load on this host."""

from __future__ import annotations

import re
import shlex
import stat
from pathlib import Path

import pytest

from httplab.running.backend_error import BackendError
from httplab.running.backends.docker_profiler import (AGENT_VARIABLE, DockerProfilerControl,
                                                      copy_out_command, exec_jattach_command,
                                                      exec_jcmd_command, remove_command)
from httplab.running.backends.local_profiler import (LocalProfilerControl,
                                                     check_local_profiler, jattach_command)


def test_docker_runs_the_images_jattach_against_java_with_the_images_agent():
    command = exec_jattach_command("c0ffee", "start,event=itimer,interval=5000000")
    assert command == ["docker", "exec", "c0ffee", "sh", "-c",
                       'jattach 1 load "$ASYNC_PROFILER_LIB" true '
                       "start,event=itimer,interval=5000000"]


def test_docker_runs_the_images_jattach_against_java_for_jfr_with_no_shell_between():
    command = "JFR.start name=httplab-pinned settings=none +jdk.VirtualThreadPinned#enabled=true"
    assert exec_jcmd_command("c0ffee", command) == ["docker", "exec", "c0ffee", "jattach", "1",
                                                    "jcmd", command]


def test_docker_quotes_the_arguments_for_the_containers_shell():
    script = exec_jattach_command("c", "stop,file=/tmp/a b;rm x,collapsed")[-1]
    assert shlex.split(script)[-1] == "stop,file=/tmp/a b;rm x,collapsed"


def test_docker_brings_a_file_out_of_the_containers_tmp_and_removes_it(tmp_path):
    control = DockerProfilerControl("c0ffee", {})
    destination = tmp_path / "netty+profiled-t5-c500.collapsed.txt"
    assert control.target(destination) == "/tmp/netty+profiled-t5-c500.collapsed.txt"
    assert copy_out_command("c0ffee", control.target(destination), destination) == [
        "docker", "cp", "c0ffee:/tmp/netty+profiled-t5-c500.collapsed.txt", str(destination)]
    assert remove_command("c0ffee", "/tmp/x.html") == ["docker", "exec", "c0ffee", "rm", "-f",
                                                       "/tmp/x.html"]


def test_the_servers_image_names_the_agent_where_the_harness_looks(repo):
    dockerfile = (repo / "servers" / "Dockerfile").read_text()
    assert re.search(rf"^ENV {AGENT_VARIABLE}=/\S+/libasyncProfiler\.so$", dockerfile, re.M)


def test_locally_jattach_loads_the_agent_by_its_absolute_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert jattach_command("jattach", 4242, Path("lib/libasyncProfiler.so"), "check") == [
        "jattach", "4242", "load", str(tmp_path / "lib" / "libasyncProfiler.so"), "true",
        "check"]


def test_locally_the_jvm_writes_straight_into_raw(tmp_path):
    control = LocalProfilerControl("jattach", 4242, tmp_path / "agent.so")
    destination = tmp_path / "raw" / "netty+profiled-t5-c500.flame.html"
    assert control.target(destination) == str(destination)
    assert control.collect(destination) == ("the profiler wrote no "
                                            "netty+profiled-t5-c500.flame.html")
    destination.parent.mkdir()
    destination.write_text("<html>")
    assert control.collect(destination) is None


def test_a_local_jattach_that_cannot_run_is_a_reply_not_a_crash(tmp_path):
    reply = LocalProfilerControl(str(tmp_path / "no-jattach"), 4242,
                                 tmp_path / "agent.so").send("check")
    assert reply.code == -1 and "cannot run" in reply.message


def _executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_before_any_load_each_missing_piece_is_one_line_with_the_way_out(tmp_path):
    agent = tmp_path / "libasyncProfiler.so"
    jattach = str(_executable(tmp_path / "jattach"))
    with pytest.raises(BackendError, match=r"^jattach not found on PATH.*apt-get install "
                                           r"jattach\), or set PROFILE=0$"):
        check_local_profiler(str(tmp_path / "missing-jattach"), agent)
    with pytest.raises(BackendError, match=rf"^async-profiler's agent is not at {agent}.*"
                                           r"run `make jars`.*, or set PROFILE=0$"):
        check_local_profiler(jattach, agent)
    agent.write_bytes(b"\x7fELF")
    check_local_profiler(jattach, agent)


def test_a_profiled_server_starts_locally_with_the_options_for_accurate_java_frames(tmp_path):
    from httplab.running.backends.local import java_command, server_environment
    from tests.support.plans import KNOWN

    profiled = KNOWN[0].for_profile(True)
    assert java_command("java", profiled, tmp_path / "x.jar") == [
        "java", "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints", "-jar",
        str(tmp_path / "x.jar")]
    assert server_environment(profiled, 9000)["JAVA_OPTS"] == (
        "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints")
    assert java_command("java", KNOWN[0], tmp_path / "x.jar") == [
        "java", "-jar", str(tmp_path / "x.jar")]
