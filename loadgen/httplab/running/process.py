"""A server process on this host: start it, keep its output, stop it for sure."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

from httplab.running.plan import cpuset_members
from httplab.checking.ready_line import StartupInfo, find_startup_line

LOG_TAIL_LINES = 20


def pin_to(cpus: str | None) -> Callable[[], None] | None:
    """A preexec_fn that pins the child to a cpuset such as '0-1,3'; None for no pinning."""
    if not cpus:
        return None
    members = cpuset_members(cpus)
    return lambda: os.sched_setaffinity(0, members)


class ServerProcess:
    """A child process whose whole output (stdout and stderr) goes to a log file, so it
    never blocks on a full pipe and nothing it printed is lost. Without a log path the
    output goes to a temporary file, removed when the process is stopped."""

    def __init__(self, command: list[str], env: dict[str, str], cpus: str | None = None,
                 log_path: Path | None = None):
        self._temporary = log_path is None
        if log_path is None:
            handle, name = tempfile.mkstemp(prefix="httplab-server-", suffix=".log")
            os.close(handle)
            log_path = Path(name)
        self.log_path = log_path
        with log_path.open("ab") as log:  # each round of a bench adds to the same log
            self._process = subprocess.Popen(
                command, env=env, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=pin_to(cpus))

    @property
    def pid(self) -> int:
        return self._process.pid

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def tail(self, count: int = LOG_TAIL_LINES) -> str:
        return "\n".join(self.output().splitlines()[-count:])

    def exit_code(self) -> int | None:
        return self._process.poll()

    def is_running(self) -> bool:
        return self._process.poll() is None

    def wait_ready(self, timeout_s: float) -> StartupInfo | None:
        """The parsed ready line, or None if the process exited or the time ran out."""
        deadline = time.monotonic() + timeout_s
        while True:
            startup = find_startup_line(self.output())
            if startup is not None or self._process.poll() is not None:
                return startup or find_startup_line(self.output())
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)

    def stop(self, grace_s: float = 10.0, let_finish_s: float = 0.0) -> float:
        """After waiting up to let_finish_s for the process to end by itself: SIGTERM, then
        SIGKILL after grace_s. Returns the seconds the stop took."""
        started = time.monotonic()
        if let_finish_s > 0:
            try:
                self._process.wait(let_finish_s)
            except subprocess.TimeoutExpired:
                pass
        if self._process.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self._process.wait(grace_s)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self._process.wait()
        if self._temporary:
            self.log_path.unlink(missing_ok=True)
        return time.monotonic() - started

    def _signal(self, signum: int) -> None:
        try:
            os.killpg(self._process.pid, signum)
        except ProcessLookupError:
            pass
