"""What a backend gives the runner to reach a started server's JVM through jattach: send
async-profiler's agent a command, or the JVM a jcmd one (JFR, running/profiling/pinning.py),
say where the JVM is to write a file, and bring that file back."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from httplab.running.profiling.agent import AgentReply


class ProfilerControl(Protocol):
    # Why the kernel's CPU clock may be closed to the server where it runs: said when
    # PROFILE_EVENT=cpu falls back to itimer.
    perf_events_refused: str

    def send(self, arguments: str) -> AgentReply:
        """jattach against the server's JVM with the agent's arguments (agent.py); never
        raises: a command that could not run is a reply with its exit code and message."""

    def jcmd(self, command: str) -> tuple[int, str]:
        """`jattach <pid> jcmd <command>` against the server's JVM: jattach's exit code and
        everything it printed; never raises (-1 and why, when it could not run)."""

    def target(self, destination: Path) -> str:
        """Where the JVM is to write the file that ends at destination, as its path."""

    def collect(self, destination: Path) -> str | None:
        """Brings the file written at target(destination) to destination, leaving nothing
        behind in the server; None when it is there, else why it is not."""


@dataclass(frozen=True)
class ServerProfiler:
    """async-profiler loaded into one started server, with the event it samples there (cpu,
    or itimer where the kernel's CPU clock is closed) and its interval per sample."""

    control: ProfilerControl
    event: str
    interval: int


# A stop writes the whole profile out: bounded, but generously.
CONTROL_TIMEOUT_S = 60


def run_bounded(command: list[str], environment: Mapping[str, str] | None = None,
                timeout_s: float = CONTROL_TIMEOUT_S) -> tuple[int, str]:
    """A control command's exit code and everything it printed; never raises (-1 and why,
    when it could not run or did not finish)."""
    try:
        done = subprocess.run(command, env=environment, capture_output=True, text=True,
                              timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return -1, f"`{' '.join(command[:3])} ...` did not finish in {timeout_s:g} s"
    except OSError as error:
        return -1, f"cannot run {command[0]}: {error}"
    return done.returncode, done.stdout + done.stderr
