"""The stall meter (loadtools/stall_meter/) beside each measured run and step: started right
before the load (inside the profiler, before the resource sampler) and stopped right after
it, never around a primer or warm-up.

It runs on this machine, as the lab's own process (`sys.executable -m ...`), and writes
raw/<stem>.stalls.json itself: with BACKEND=local and the Docker backend here, that is where
the server and the load tool run. It meters each CPU either may run on, a meter pinned to
each, and records what ran there (stall_cpus.py). With LOADGEN_HOSTS it runs in the load
generator's place on each of their engines too, around the same run (started before this
machine's, stopped after it): a container of the wrk image (which holds python3 and this
package), pinned to the load tool's CPUs when LOADGEN_CPUS names them (a meter on each of
the container's CPUs), its JSON brought back on its standard output as
raw/<stem>.stalls.<N>.json. The container is removed whatever happens: the
engine removes it (`docker run --rm`) once the meter ends, on SIGTERM after the run, on
Ctrl-C, or by itself SELF_STOP_MARGIN_S after the run should have ended (a harness killed
outright); one that did not end is removed by its name, the run's load generators' name
with -stalls<N>.

On an engine it asks to run as a real-time task: the container gets CAP_SYS_NICE and runs as
root (an unprivileged user does not hold the capabilities a container is given), and a
share of real-time time (--cpu-rt-runtime), the only way a kernel with real-time group
scheduling lets a container's task take SCHED_FIFO (and only where dockerd was started with
--cpu-rt-runtime). An engine that refuses that share gets the meter without it, from then on
for the whole run, and the meter asks SCHED_FIFO itself (enough on a kernel without
real-time group scheduling); its record says how it ran, and why not."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import TypeVar

import httplab
from httplab.loadtools.stall_meter.__main__ import HERE, READY_LINE
from httplab.results.collect import engine_stalls_paths
from httplab.run_layout import STALLS_SUFFIX, RunFiles
from httplab.running.backends.docker_loadgen import loadgen_container_name
from httplab.running.docker.compose import WRK_IMAGE
from httplab.running.docker.remote import ENGINE_TIMEOUT_S, engine_env
from httplab.running.engines import Engine
from httplab.running.raw_reduction import reduce_stalls
from httplab.running.stall_cpus import LOAD_TOOL, cpu_roles, meter_arguments, side_cpus

T = TypeVar("T")
METER_MODULE = "httplab.loadtools.stall_meter"
# The meter ends itself this long after its run should have, should the lab not stop it.
SELF_STOP_MARGIN_S = 120
STOP_WAIT_S = 10  # for it to write its JSON after SIGTERM
READY_WAIT_S = 10  # for Python to start it on a loaded host, before the run goes on anyway
# Of each second, the real-time time a meter's container may take: the meter needs under
# 1 % of a core; beyond its share the kernel would throttle it, which would read as stalls.
REAL_TIME_SHARE_US = 50_000

# What meters one run: given where its JSON goes and the run's duration, a context around it.
StallMeter = Callable[[Path, float], AbstractContextManager]


class HostStallMeter(AbstractContextManager):
    """The meter as a process of this machine, around one run."""

    def __init__(self, out: Path, duration_s: float, place: str = HERE,
                 cpus: dict[int, str] | None = None):
        self.out, self.place, self.cpus = out, place, cpus or {}
        self.bound_s = duration_s + SELF_STOP_MARGIN_S
        self.process: subprocess.Popen | None = None

    def command(self) -> list[str]:
        """Its command: a meter on each CPU of `cpus` (every CPU it may use, without)."""
        return [sys.executable, "-m", METER_MODULE, "--duration-s", str(self.bound_s),
                "--out", str(self.out), "--place", self.place, *meter_arguments(self.cpus)]

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
        wait_until_ready(self.process)
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


def wait_until_ready(process: subprocess.Popen) -> str | None:
    """Until the meter says it measures (so SIGTERM ends it with a record), at most
    READY_WAIT_S: a meter that never says so must not hold the run. None once it said so,
    else what it said instead (or that it said nothing)."""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        if not selector.select(timeout=READY_WAIT_S):
            return f"not measuring after {READY_WAIT_S} s"
        line = process.stderr.readline().strip()
    return None if line == READY_LINE else line or "it ended without a word"


class EngineStallMeter:
    """The meter in a container of the wrk image on one load generator's engine, around one
    run: `docker run --rm`, attached, so its JSON comes back on standard output and the
    engine removes the container once the meter ends. `refused` (shared by the run's
    meters) keeps, per engine, why it gave no real-time share."""

    def __init__(self, engine: Engine, index: int, out: Path, duration_s: float,
                 cpus: str | None, refused: dict[str, str]):
        self.engine, self.out, self.cpus, self.refused = engine, out, cpus, refused
        self.place = f"load generator {index} ({engine.spec})"
        self.container = f"{loadgen_container_name()}-stalls{index}"
        self.bound_s = duration_s + SELF_STOP_MARGIN_S
        self.process: subprocess.Popen | None = None
        self.asked_share = False

    def run_arguments(self, real_time_share: bool) -> list[str]:
        share = ["--cpu-rt-runtime", str(REAL_TIME_SHARE_US)] if real_time_share else []
        pinning = ["--cpuset-cpus", self.cpus] if self.cpus else []
        refused = self.refused.get(self.engine.spec)
        note = ["--real-time-note", f"the engine gave no real-time share: {_tail(refused)}"] \
            if refused else []
        return ["run", "--rm", "--name", self.container, "--network", "none", "--user", "0",
                "--cap-add", "SYS_NICE", *share, *pinning, "--entrypoint", "python3",
                WRK_IMAGE, "-m", METER_MODULE, "--duration-s", str(self.bound_s),
                "--place", self.place, "--role", LOAD_TOOL, *note]

    def launch(self) -> None:
        """Started, with a real-time share unless the engine refused one."""
        self.asked_share = self.engine.spec not in self.refused
        with self.out.open("w") as out:
            try:
                self.process = subprocess.Popen(
                    ["docker", *self.run_arguments(self.asked_share)],
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE, text=True,
                    env=engine_env(self.engine))
            except OSError:  # no docker here: no meter, no record; the run goes on
                self.process = None

    def await_ready(self) -> str | None:
        """None once its meter measures, else why not (the meter then gone)."""
        if self.process is None:
            return "docker cannot be run"
        failure = wait_until_ready(self.process)
        if failure is not None:
            self.process.kill()  # a meter not measuring after READY_WAIT_S is not waited for
            self.finish()
        return failure

    def ask_stop(self) -> subprocess.Popen | None:
        """SIGTERM to the meter (which then writes its JSON and ends), under way."""
        if self.process is None or self.process.poll() is not None:
            return None
        return _docker_under_way(self.engine, "kill", "--signal", "TERM", self.container)

    def finish(self) -> None:
        """Waits for the meter, killed after STOP_WAIT_S; its container removed where the
        engine may not have (the meter did not end by itself); no empty record kept."""
        process, self.process = self.process, None
        if process is not None:
            try:
                process.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            process.stderr.close()
            if process.returncode != 0:
                _ended(_docker_under_way(self.engine, "rm", "-f", self.container))
        if self.out.exists() and self.out.stat().st_size == 0:
            self.out.unlink()


class EngineStallMeters(AbstractContextManager):
    """Every load generator engine's meter of one run, launched together and stopped
    together (each docker command over SSH takes about a second). One an engine refused a
    real-time share is launched again without it."""

    def __init__(self, meters: list[EngineStallMeter]):
        self.meters = meters
        self.unmeasured: list[str] = []  # "load generator 2 (ssh://c): why", no meter there

    def __enter__(self) -> EngineStallMeters:
        try:
            for meter in self.meters:
                meter.out.unlink(missing_ok=True)
                meter.launch()
            for meter in self.meters:
                failure = meter.await_ready()
                if failure is not None and meter.asked_share:
                    meter.refused[meter.engine.spec] = failure
                    meter.launch()
                    failure = meter.await_ready()
                if failure is not None:
                    self.unmeasured.append(f"{meter.place}: {_tail(failure)}")
        except BaseException:
            self.__exit__()
            raise
        return self

    def host_place(self) -> str:
        """This machine's meter's place, naming the engines that have no meter and why."""
        return "; ".join([HERE, *(f"no meter on {place}" for place in self.unmeasured)])

    def __exit__(self, *_exception) -> bool:
        try:
            for stopping in [meter.ask_stop() for meter in self.meters]:
                _ended(stopping)
        finally:
            for meter in self.meters:
                meter.finish()
        return False


def _docker_under_way(engine: Engine, *args: str) -> subprocess.Popen | None:
    """A docker command aimed at the engine, started; None where docker cannot be run."""
    try:
        return subprocess.Popen(["docker", *args], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=engine_env(engine))
    except OSError:
        return None


def _ended(process: subprocess.Popen | None) -> None:
    """Waits for a docker command, killed after ENGINE_TIMEOUT_S."""
    if process is None:
        return
    try:
        process.wait(timeout=ENGINE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _tail(text: str, length: int = 200) -> str:
    """The end of a long message (where docker says what failed), from a word on."""
    return text if len(text) <= length else "..." + text[-length:].partition(" ")[2]


def host_stall_meter(load_generators: tuple[Engine, ...] = (), cpus: str | None = None,
                     server_cpus: str | None = None, server_here: bool = True) -> StallMeter:
    """The meters of a run's measured loads: this machine's, one on each CPU the server
    (when `server_here`, on `server_cpus` when set) or the load tool (when here, on `cpus`
    when set) may use, and each load generator engine's (pinned to `cpus`), started before
    this machine's and stopped after it."""
    usable = frozenset(os.sched_getaffinity(0))
    roles = cpu_roles(side_cpus(server_cpus, server_here, usable),
                      side_cpus(cpus, not load_generators, usable), usable)
    if not load_generators:
        return lambda out, duration_s: HostStallMeter(out, duration_s, cpus=roles)
    refused: dict[str, str] = {}

    @contextmanager
    def every_meter(out: Path, duration_s: float) -> Iterator[None]:
        files = RunFiles.of_output(out, STALLS_SUFFIX)
        with EngineStallMeters([
                EngineStallMeter(engine, index, files.engine_stalls(index), duration_s, cpus,
                                 refused)
                for index, engine in enumerate(load_generators, start=1)]) as engines, \
                HostStallMeter(out, duration_s, engines.host_place(), roles):
            yield
    return every_meter


def metered(meter: StallMeter | None, out: Path, duration_s: float, run: Callable[[], T]) -> T:
    """run(), with the meter around it when there is one; then every meter's record, this
    machine's and the engines', with its lateness as an HdrHistogram (raw_reduction.py)."""
    try:
        with nullcontext() if meter is None else meter(out, duration_s):
            return run()
    finally:
        if meter is not None:
            for path in (out, *engine_stalls_paths(RunFiles.of_output(out, STALLS_SUFFIX))):
                reduce_stalls(path)
