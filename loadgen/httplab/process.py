"""A server process on this host: start it, wait for its ready line, stop it for sure."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections import deque
from typing import Callable

from .plan import cpuset_members
from .startup import StartupInfo, find_startup_line

LOG_TAIL_LINES = 20


def pin_to(cpus: str | None) -> Callable[[], None] | None:
    """A preexec_fn that pins the child to a cpuset such as '0-1,3'; None for no pinning."""
    if not cpus:
        return None
    members = cpuset_members(cpus)
    return lambda: os.sched_setaffinity(0, members)


class ServerProcess:
    """A child process whose output is drained by a thread, so it never blocks on a full pipe."""

    def __init__(self, command: list[str], env: dict[str, str], cpus: str | None = None):
        self._process = subprocess.Popen(
            command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True,
            preexec_fn=pin_to(cpus))
        self._lines: deque[str] = deque(maxlen=2000)
        self._ready = threading.Event()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.append(line.rstrip("\n"))
            if find_startup_line(line):
                self._ready.set()

    @property
    def pid(self) -> int:
        return self._process.pid

    def output(self) -> str:
        return "\n".join(self._lines)

    def tail(self, count: int = LOG_TAIL_LINES) -> str:
        return "\n".join(list(self._lines)[-count:])

    def exit_code(self) -> int | None:
        return self._process.poll()

    def is_running(self) -> bool:
        return self._process.poll() is None

    def wait_ready(self, timeout_s: float) -> StartupInfo | None:
        """The parsed ready line, or None if the process exited or the time ran out."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._ready.wait(0.05):
                return find_startup_line(self.output())
            if self._process.poll() is not None:
                self._reader.join(1)
                return find_startup_line(self.output())
        return None

    def stop(self, grace_s: float = 10.0) -> float:
        """SIGTERM, then SIGKILL after grace_s; returns the seconds the stop took."""
        started = time.monotonic()
        if self._process.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self._process.wait(grace_s)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self._process.wait()
        self._reader.join(2)
        return time.monotonic() - started

    def _signal(self, signum: int) -> None:
        try:
            os.killpg(self._process.pid, signum)
        except ProcessLookupError:
            pass
