"""async-profiler and JFR in a server started by the local backend: jattach against the
java process, the agent from `make jars`, files written by the JVM straight into raw/ (as
the JVM's user, the harness's own)."""

from __future__ import annotations

import shutil
from pathlib import Path

from httplab.running.backend_error import BackendError
from httplab.running.profiling.agent import AgentReply, read_reply
from httplab.running.profiling.control import run_bounded

JATTACH = "jattach"
JATTACH_MISSING = ("jattach not found on PATH, and PROFILE=1 needs it to reach the servers' "
                   "JVMs: install Debian's jattach (apt-get install jattach), or set PROFILE=0")
AGENT_MISSING = ("async-profiler's agent is not at {path}, and PROFILE=1 loads it into the "
                 "servers: run `make jars` (it unpacks it there), or set PROFILE=0")


def check_local_profiler(jattach: str, agent: Path) -> None:
    """Before any load: each missing piece, one line with the way out."""
    if shutil.which(jattach) is None:
        raise BackendError(JATTACH_MISSING)
    if not agent.is_file():
        raise BackendError(AGENT_MISSING.format(path=agent))


def jattach_command(jattach: str, pid: int, agent: Path, arguments: str) -> list[str]:
    return [jattach, str(pid), "load", str(agent.resolve()), "true", arguments]


class LocalProfilerControl:
    perf_events_refused = ("this host does not open perf events to the server's process "
                           "(kernel.perf_event_paranoid)")

    def __init__(self, jattach: str, pid: int, agent: Path):
        self.jattach, self.pid, self.agent = jattach, pid, agent

    def send(self, arguments: str) -> AgentReply:
        return read_reply(*run_bounded(jattach_command(self.jattach, self.pid, self.agent,
                                                       arguments)))

    def jcmd(self, command: str) -> tuple[int, str]:
        return run_bounded([self.jattach, str(self.pid), "jcmd", command])

    def target(self, destination: Path) -> str:
        return str(destination.resolve())

    def collect(self, destination: Path) -> str | None:
        """Already in place: the JVM wrote it there."""
        return None if destination.is_file() else f"the profiler wrote no {destination.name}"
