"""One fixed-rate step against a server: oha's JSON named by convention, and the server's
CPU and memory sampled while it measures, the host's stalls metered around it (as
measure.py does for wrk)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from httplab.axes import H1
from httplab.loadtools.oha.command import OhaRequest
from httplab.model import PLAINTEXT, StepPurpose, Workload
from httplab.outcomes import StepOutcome
from httplab.run_layout import step_files, step_stem
from httplab.running.backends.base import WrkOutcome
from httplab.running.database.base import StartedDatabase
from httplab.running.measure import (database_sampler_for, sampled_run, sampler_for,
                                     tool_failure, write_resources)
from httplab.running.profiling.control import ServerProfiler
from httplab.running.profiling.session import profiled
from httplab.running.resources.probes import ResourceProbe
from httplab.running.run_context import RunContext
from httplab.running.stall_metering import metered

TOOL = "oha"


@dataclass(frozen=True)
class StepTarget:
    """Where a series' steps go: the server, its URL at the workload, its round, what
    samples it and what runs beside it."""

    index: int  # progress's [index/starts]
    server: str
    url: str
    round_number: int
    probe: ResourceProbe
    stopped: Callable[[], str | None]  # how it stopped; None while it runs
    workload: Workload = PLAINTEXT
    database: StartedDatabase | None = None  # sampled beside the server during each step
    profiler: ServerProfiler | None = None  # PROFILE=1: around each measured step
    protocol: str = H1  # what the server speaks on its port (ServerManifest.protocol)


class StepMeasurer:
    def __init__(self, context: RunContext):
        self.context = context

    def warm(self, target: StepTarget, request: OhaRequest, cost: bool,
             attempt: int = 1) -> str | None:
        """The unmeasured run at the step's rate; its failure, if any."""
        stem = step_stem(target.server, request.rate_per_s, cost, target.round_number,
                         self.context.rounds, attempt, target.workload.key)
        files = step_files(self.context.raw_dir, stem, measured=False)
        files.oha.parent.mkdir(parents=True, exist_ok=True)
        return tool_failure(TOOL, self._run(request, files.oha))

    def measure(self, target: StepTarget, request: OhaRequest, purpose: StepPurpose,
                attempt: int = 1) -> StepOutcome:
        """One fixed-rate step, the server sampled throughout, and the database it reads
        too when there is one; the host's stalls metered around that, and profiled around
        all when the server has a profiler (never its warm-up)."""
        stem = step_stem(target.server, request.rate_per_s, purpose is StepPurpose.COST,
                         target.round_number, self.context.rounds, attempt, target.workload.key)
        files = step_files(self.context.raw_dir, stem)
        files.oha.unlink(missing_ok=True)
        database_sampler = database_sampler_for(self.context.backend, target.database)
        sampler = sampler_for(target.probe)
        (outcome, usage), profile = profiled(target.profiler, files, lambda: metered(
            self.context.stall_meter, files.stalls, request.duration_s, lambda: sampled_run(
                lambda: self._run(request, files.oha), sampler, TOOL, database_sampler)))
        return StepOutcome(target.server, request.rate_per_s, request.connections, purpose,
                           files.oha if files.oha.exists() else None,
                           write_resources(files, usage), tool_failure(TOOL, outcome),
                           target.round_number, attempt, target.workload,
                           profile_path=profile.record_path if profile else None,
                           stalls_path=files.stalls if files.stalls.exists() else None)

    def _run(self, request: OhaRequest, json_path: Path) -> WrkOutcome:
        return self.context.backend.run_oha(request, json_path, self.context.loadgen_cpus)
