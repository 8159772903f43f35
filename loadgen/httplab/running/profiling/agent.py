"""async-profiler's agent as jattach drives it: the arguments of each command, built by
small pure functions, and jattach's reply read back. Pure: no process is run here.

Every command is `jattach <pid> load <libasyncProfiler.so> true <arguments>`: the first
one loads the agent into the JVM, later ones reach the loaded agent. jattach prints
"return code: N" (0: done) and exits with N; the agent's own message ("[ERROR] ...") goes
to the JVM's stdout, that is the server's log."""

from __future__ import annotations

import re
from dataclasses import dataclass

from httplab.model import PROFILE_EVENTS

# PROFILE_EVENT=cpu: async-profiler's cpu event where the kernel's CPU clock (perf events)
# is open to the server's process, which this probe tells; its itimer event where not.
CPU_CLOCK_PROBE = "cpu-clock"
CPU_EVENT, FALLBACK_EVENT = "cpu", "itimer"
# One sample per 5 ms of CPU time (cpu, itimer) or of wall time (wall), in ns: 200 samples
# a second per busy core, fine enough for the layers' shares of a 10 s run.
SAMPLING_INTERVAL_NS = 5_000_000
# alloc samples one allocation per this many bytes: async-profiler's own default (512 KiB).
ALLOC_INTERVAL_BYTES = 512 * 1024
_RETURN_CODE = re.compile(r"^return code: (-?\d+)\s*$", re.M)
_JATTACH_CHATTER = ("Connected to remote JVM", "JVM response code = 0")
_AGENT_ERROR = re.compile(r"^\[ERROR\] .*$", re.M)


class ProfilerError(Exception):
    """async-profiler cannot profile a server; the message is for the user."""


def sampling_interval(event: str) -> int:
    """Per sample: ns of CPU or wall time, or bytes allocated (alloc)."""
    if event not in PROFILE_EVENTS:
        raise ValueError(f"not a profile event: {event!r}")
    return ALLOC_INTERVAL_BYTES if event == "alloc" else SAMPLING_INTERVAL_NS


def check_arguments(event: str) -> str:
    """Asks whether the event can be profiled here, starting nothing."""
    return f"check,event={event}"


def start_arguments(event: str, interval: int) -> str:
    return f"start,event={event},interval={interval}"


def stop_arguments(path: str) -> str:
    """Stops the profile and writes its collapsed stacks (one line per stack) to path."""
    return f"stop,file={_file(path)},collapsed"


def dump_arguments(path: str) -> str:
    """After stop: the same profile as a flame graph, one self-contained HTML page."""
    return f"dump,file={_file(path)},flamegraph"


def _file(path: str) -> str:
    if "," in path:  # the agent splits its arguments at commas
        raise ProfilerError(f"async-profiler cannot write to {path!r}: its arguments are "
                            "separated by commas, so a path may not hold one")
    return path


@dataclass(frozen=True)
class AgentReply:
    """What a jattach command came back with: the agent's return code (else jattach's
    exit code, when it never reached the agent) and anything else it printed."""

    code: int
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.code == 0

    @property
    def summary(self) -> str:
        return f"return code {self.code}" + (f" ({self.message})" if self.message else "")


def read_reply(exit_code: int, output: str) -> AgentReply:
    """jattach's output and exit code -> its reply: the "return code: N" line when the
    agent was reached, with what else it said (not its greeting) as the message."""
    found = _RETURN_CODE.findall(output)
    code = int(found[-1]) if found else exit_code
    said = [line.strip() for line in _RETURN_CODE.sub("", output).splitlines()
            if line.strip() and line.strip() not in _JATTACH_CHATTER]
    return AgentReply(code, "; ".join(said))


def last_agent_error(log_text: str) -> str | None:
    """The agent's last "[ERROR] ..." line in what the server printed, if any."""
    found = _AGENT_ERROR.findall(log_text)
    return found[-1].strip() if found else None
