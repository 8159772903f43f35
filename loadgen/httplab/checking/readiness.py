"""When a started server counts as ready, the one rule for every backend: it answers
GET / correctly AND has printed its httplab-ready line, both within one time limit.

The backends supply how to ask (an answer probe, the output so far, whether the server
still runs); the waiting and the reason for a server that is not ready live here."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from httplab.axes import H1
from httplab.checking.http_wire import Connection, WireError
from httplab.checking.polling import poll_until
from httplab.checking.ready_line import StartupInfo, find_startup_line
from httplab.checking.responses import hello_problems
from httplab.run_tls import RunTls

READY_TIMEOUT_S = 120.0
ANSWER_TIMEOUT_S = 1.0
POLL_S = 0.1
LOG_TAIL_LINES = 20


@dataclass(frozen=True)
class Readiness:
    """What a wait saw: the ready line, and the seconds until the first correct answer."""

    startup: StartupInfo | None
    first_answer_s: float | None
    stopped: bool = False  # the server exited during the wait

    @property
    def ready(self) -> bool:
        return self.startup is not None and self.first_answer_s is not None


@dataclass(frozen=True)
class ServerProbes:
    """How a backend lets the wait look at one server."""

    answers: Callable[[], bool]  # does GET / answer correctly now?
    output: Callable[[], str]  # everything the server printed so far
    running: Callable[[], bool]


def answers_correctly(host: str, port: int, server_header: str, protocol: str = H1,
                      tls: RunTls | None = None) -> bool:
    """One GET /: True when the answer is the right hello world (in another protocol than
    h1: a 200 in that protocol, with the run's certificate over TLS); False on any error."""
    if protocol != H1:
        from httplab.checking.protocol_wire import protocol_problem  # HTTP/2's library

        return not protocol_problem(host, port, protocol, tls, timeout=ANSWER_TIMEOUT_S)
    try:
        with Connection(host, port, timeout=ANSWER_TIMEOUT_S) as connection:
            return not hello_problems(connection.get("/"), server_header)
    except (OSError, WireError):
        return False


def wait_until_ready(probes: ServerProbes, timeout_s: float = READY_TIMEOUT_S,
                     clock: Callable[[], float] = time.monotonic,
                     sleep: Callable[[float], None] = time.sleep) -> Readiness:
    """Polls until the server has answered correctly and printed its ready line, the time
    runs out, or the server stops. Never raises for a bad server."""
    watch = _Watch(probes, clock)
    return (poll_until(watch.look, timeout_s, POLL_S, clock, sleep)
            or Readiness(watch.startup, watch.first_answer_s))


class _Watch:
    """What one wait has seen so far of a server: its first correct answer, its ready line."""

    def __init__(self, probes: ServerProbes, clock: Callable[[], float]):
        self.probes, self.clock, self.started = probes, clock, clock()
        self.first_answer_s: float | None = None
        self.startup: StartupInfo | None = None

    def look(self) -> Readiness | None:
        """The Readiness once the server is ready or has stopped; None while it may be."""
        if self.first_answer_s is None and self.probes.answers():
            self.first_answer_s = self.clock() - self.started
        if self.startup is None:
            self.startup = find_startup_line(self.probes.output())
        if self.startup is not None and self.first_answer_s is not None:
            return Readiness(self.startup, self.first_answer_s)
        if not self.probes.running():
            # A last look: the line may have been printed just before the exit.
            startup = self.startup or find_startup_line(self.probes.output())
            return Readiness(startup, self.first_answer_s, True)
        return None


def not_ready_reason(readiness: Readiness, timeout_s: float, output: str,
                     exit_note: str = "") -> str:
    """Why a server is not ready, with the tail of its output; empty when it is ready."""
    if readiness.ready:
        return ""
    within = "before it stopped" if readiness.stopped else f"within {timeout_s:g} s"
    if readiness.first_answer_s is not None:
        what = (f"answered correctly after {readiness.first_answer_s:.1f} s but printed no "
                f"httplab-ready line {within}")
    elif readiness.startup is not None:
        what = f"printed its httplab-ready line but gave no correct answer to GET / {within}"
    else:
        what = f"gave no correct answer to GET / and printed no httplab-ready line {within}"
    stopped = f" (it exited{exit_note})" if readiness.stopped else ""
    return f"{what}{stopped}; last output lines:\n{tail(output)}"


def tail(output: str, lines: int = LOG_TAIL_LINES) -> str:
    kept = output.strip().splitlines()[-lines:]
    return "\n".join(kept) if kept else "(no output)"
