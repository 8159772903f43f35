"""The stall meter (loadtools/stall_meter/) beside each measured run and step: started right
before the load (inside the profiler, before the resource sampler) and stopped right after
it, never around a primer or warm-up; it writes raw/<stem>.stalls.json itself.

It runs on this machine, as the lab's own process (`sys.executable -m ...`): with
BACKEND=local and the Docker backend here, that is where the server and the load tool run.
With LOADGEN_HOSTS the load generators' engines are not measured, and the record says so
(its place), rather than nothing."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TypeVar

import httplab
from httplab.loadtools.stall_meter.__main__ import READY_LINE

T = TypeVar("T")
METER_MODULE = "httplab.loadtools.stall_meter"
# The meter ends itself this long after its run should have, should the lab not stop it.
SELF_STOP_MARGIN_S = 120
STOP_WAIT_S = 10  # for it to write its JSON after SIGTERM
READY_WAIT_S = 10  # for Python to start it on a loaded host, before the run goes on anyway
HERE = "host"
HERE_NOT_ENGINES = "this host; not measured on the remote load-generator engines"

# What meters one run: given where its JSON goes and the run's duration, a context around it.
StallMeter = Callable[[Path, float], AbstractContextManager]


class HostStallMeter(AbstractContextManager):
    """The meter as a process of this machine, around one run."""

    def __init__(self, out: Path, duration_s: float, place: str = HERE):
        self.out, self.place = out, place
        self.bound_s = duration_s + SELF_STOP_MARGIN_S
        self.process: subprocess.Popen | None = None

    def command(self) -> list[str]:
        return [sys.executable, "-m", METER_MODULE, "--duration-s", str(self.bound_s),
                "--out", str(self.out), "--place", self.place]

    def __enter__(self) -> HostStallMeter:
        self.out.unlink(missing_ok=True)
        package_root = str(Path(httplab.__file__).resolve().parents[1])
        env = {**os.environ, "PYTHONPATH": package_root}
        try:
            self.process = subprocess.Popen(self.command(), env=env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                            text=True)
        except OSError:  # a meter that cannot start leaves no record; the run goes on
            self.process = None
            return self
        _wait_until_ready(self.process)
        return self

    def __exit__(self, *_exception) -> bool:
        process = self.process
        if process is None:
            return False
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stderr.close()
        return False


def _wait_until_ready(process: subprocess.Popen) -> None:
    """Until the meter says it measures (so SIGTERM ends it with a record), at most
    READY_WAIT_S: a meter that never says so must not hold the run."""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        if selector.select(timeout=READY_WAIT_S):
            process.stderr.readline()


def host_stall_meter(remote_load_generators: bool) -> StallMeter:
    """The meter of a run's measured loads, saying where it measured."""
    place = HERE_NOT_ENGINES if remote_load_generators else HERE
    return lambda out, duration_s: HostStallMeter(out, duration_s, place)


def metered(meter: StallMeter | None, out: Path, duration_s: float, run: Callable[[], T]) -> T:
    """run(), with the meter around it when there is one."""
    with nullcontext() if meter is None else meter(out, duration_s):
        return run()
