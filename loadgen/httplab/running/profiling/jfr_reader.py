"""A JFR recording of pinned virtual threads read on this host: the newest host JDK's
`jfr print --json` (running/jdks.py; `make jdks` gives JDK 21's and 25's their jfr), its
output summed as it comes (loadtools/jfr/pinned.py), bounded in time."""

from __future__ import annotations

import signal
import subprocess
import tempfile
import threading
from pathlib import Path

from httplab.axes import JDK
from httplab.loadtools.jfr.command import print_arguments
from httplab.loadtools.jfr.pinned import JfrJsonError, pinned_run
from httplab.model import PinnedRun
from httplab.paths import DEFAULT_REPO
from httplab.running.jdks import JdkNotFound, newest_java_home

# 26,817 pinned events (430 MB of JSON) were printed and summed in 2.4 s here: the bound
# leaves room for runs pinned fifty times as often.
READ_TIMEOUT_S = 120
_CHUNK = 1 << 16


class PinnedReadError(Exception):
    """A recording that could not be read; the message says why, for its record."""


class HostJfr:
    """Reads recordings with the jfr of the newest JDK on this host (any the lab knows
    reads every one's; the newest knows the newest's)."""

    def __init__(self, repo: Path = DEFAULT_REPO, timeout_s: float = READ_TIMEOUT_S):
        self.repo, self.timeout_s = repo, timeout_s

    def jfr(self) -> Path:
        try:
            return newest_java_home(int(JDK.values[0]), self.repo) / "bin" / "jfr"
        except JdkNotFound as error:
            raise PinnedReadError(f"no host JDK's jfr to read it with: {error}") from None

    def __call__(self, recording: Path) -> PinnedRun:
        command = print_arguments(str(self.jfr()), str(recording))
        with tempfile.TemporaryFile() as errors:
            try:
                process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors,
                                           text=True)
            except OSError as error:
                raise PinnedReadError(f"cannot run {command[0]}: {error}") from None
            expired = threading.Event()
            timer = threading.Timer(self.timeout_s, lambda: (expired.set(), process.kill()))
            timer.start()
            try:
                run, unreadable = _summed(process, recording)
            finally:
                timer.cancel()
                process.kill()  # when the JSON could not be read: jfr may still be printing
                code = process.wait()
            if expired.is_set():
                raise PinnedReadError(f"jfr print did not finish in {self.timeout_s:g} s")
            if code not in (0, -signal.SIGKILL):  # killed: once its JSON proved unreadable
                errors.seek(0)
                said = errors.read().decode(errors="replace").strip().splitlines()[-1:]
                raise PinnedReadError(f"jfr print exited with {code}"
                                      + (f": {said[0]}" if said else ""))
            if run is None:
                raise PinnedReadError(unreadable)
            return run


def _summed(process: subprocess.Popen, recording: Path) -> tuple[PinnedRun | None, str | None]:
    """What jfr printed, summed as it comes; or why it cannot be read."""
    assert process.stdout is not None
    chunks = iter(lambda: process.stdout.read(_CHUNK), "")
    try:
        return pinned_run(chunks, f"jfr print {recording.name}"), None
    except JfrJsonError as error:
        return None, str(error)
