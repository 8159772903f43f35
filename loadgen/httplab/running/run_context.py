"""What the runner hands to what it measures: the run's fixed facts (RunContext, built
once per run) and one started server as it is being measured (Serving, one per start)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from httplab.model import ServerRecord
from httplab.run_tls import RunTls
from httplab.running.backends.base import Backend, StartedServer
from httplab.running.database.base import StartedDatabase
from httplab.running.plan import BenchPlan
from httplab.running.profiling.control import ServerProfiler
from httplab.running.profiling.jfr_reader import HostJfr
from httplab.running.profiling.pinning import PinnedReader, PinningRecorder
from httplab.running.progress import Progress
from httplab.running.stall_metering import StallMeter


@dataclass(frozen=True)
class RunContext:
    """Fixed for the whole run: the backend, the plan, where raw files go, progress, the
    stall meter around each measured load (None: not metered), and how this host reads
    the JFR recordings of pinned virtual threads."""

    backend: Backend
    plan: BenchPlan
    raw_dir: Path
    progress: Progress
    stall_meter: StallMeter | None = None
    jfr_reader: PinnedReader = field(default_factory=HostJfr)
    # The run's TLS files (.ca_file: the CA the load tools trust); None without TLS.
    tls: RunTls | None = None

    @property
    def rounds(self) -> int:
        return self.plan.repeat

    @property
    def loadgen_cpus(self) -> str | None:
        return self.plan.loadgen_cpus

    def of_rounds(self, round_number: int) -> str:
        """How progress names a round: not at all when there is only one; with REPEAT=auto,
        of the most it may run."""
        most = "at most " if self.plan.auto_repeat else ""
        return f" (round {round_number} of {most}{self.rounds})" if self.rounds > 1 else ""


@dataclass(frozen=True)
class Serving:
    """One start of one server, verified and ready to be measured: how progress counts it,
    its record, its round, how to tell it stopped, and what runs beside it."""

    index: int  # progress's [index/starts]
    record: ServerRecord
    round_number: int
    started: StartedServer
    stopped: Callable[[], str | None]  # how it (or its database) stopped; None while it runs
    database: StartedDatabase | None = None  # the fresh database it reads, if any
    profiler: ServerProfiler | None = None  # PROFILE=1: around each measured run
    pinning: PinningRecorder | None = None  # EXECUTOR=virtual: around each measured run

    @property
    def server(self) -> str:
        return self.record.name
