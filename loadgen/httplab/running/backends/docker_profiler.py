"""async-profiler and JFR in a server's container: jattach (in the image) against java,
PID 1 there, as the image's user, by `docker exec` on the server's engine; the JVM writes
its files to the container's /tmp, whence `docker cp` brings them to raw/ and they are
removed."""

from __future__ import annotations

import shlex
from pathlib import Path

from httplab.running.profiling.agent import AgentReply, read_reply
from httplab.running.profiling.control import run_bounded

# The image's variable naming the agent (servers/Dockerfile sets it), and where java runs.
AGENT_VARIABLE = "ASYNC_PROFILER_LIB"
JAVA_PID_IN_CONTAINER = 1
FILES_IN_CONTAINER = "/tmp"


def exec_jattach_command(container: str, arguments: str) -> list[str]:
    """`docker exec <container> sh -c 'jattach 1 load "$ASYNC_PROFILER_LIB" true <args>'`."""
    script = (f'jattach {JAVA_PID_IN_CONTAINER} load "${AGENT_VARIABLE}" true '
              f"{shlex.quote(arguments)}")
    return ["docker", "exec", container, "sh", "-c", script]


def exec_jcmd_command(container: str, command: str) -> list[str]:
    """`docker exec <container> jattach 1 jcmd <command>`: the JVM's own diagnostic command."""
    return ["docker", "exec", container, "jattach", str(JAVA_PID_IN_CONTAINER), "jcmd", command]


def copy_out_command(container: str, in_container: str, destination: Path) -> list[str]:
    return ["docker", "cp", f"{container}:{in_container}", str(destination)]


def remove_command(container: str, in_container: str) -> list[str]:
    return ["docker", "exec", container, "rm", "-f", in_container]


class DockerProfilerControl:
    perf_events_refused = ("the container may not open perf events (Docker's default "
                           "seccomp profile)")

    def __init__(self, container: str, environment: dict[str, str]):
        self.container, self.environment = container, environment  # the server's engine's

    def send(self, arguments: str) -> AgentReply:
        code, output = self._docker(exec_jattach_command(self.container, arguments))
        return read_reply(code, output)

    def jcmd(self, command: str) -> tuple[int, str]:
        return self._docker(exec_jcmd_command(self.container, command))

    def target(self, destination: Path) -> str:
        return f"{FILES_IN_CONTAINER}/{destination.name}"

    def collect(self, destination: Path) -> str | None:
        in_container = self.target(destination)
        code, output = self._docker(copy_out_command(self.container, in_container,
                                                     destination))
        self._docker(remove_command(self.container, in_container))
        if code != 0:
            said = output.strip().splitlines()[-1:] or ["no message"]
            return f"could not copy {in_container} out of the container: {said[0]}"
        return None

    def _docker(self, command: list[str]) -> tuple[int, str]:
        return run_bounded(command, self.environment)
