"""One fixed-rate step against a started server: oha's JSON named by convention, and the
server's CPU and memory sampled while it measures (as measure.py does for wrk)."""

from __future__ import annotations

from pathlib import Path

from httplab.loadtools.oha.command import OhaRequest
from httplab.model import PLAINTEXT, StepPurpose, Workload
from httplab.outcomes import StepOutcome
from httplab.run_layout import step_files, step_stem
from httplab.running.backends.base import Backend, WrkOutcome
from httplab.running.measure import sampled_run, sampler_for, tool_failure, write_resources
from httplab.running.profiling.control import ServerProfiler
from httplab.running.profiling.session import profiled
from httplab.running.resources.probes import ResourceProbe

TOOL = "oha"


class StepMeasurer:
    def __init__(self, backend: Backend, raw_dir: Path, loadgen_cpus: str | None):
        self.backend, self.raw_dir, self.loadgen_cpus = backend, raw_dir, loadgen_cpus

    def warm(self, server: str, request: OhaRequest, cost: bool, round_number: int,
             rounds: int, attempt: int = 1, workload: Workload = PLAINTEXT) -> str | None:
        """The unmeasured run at the step's rate; its failure, if any."""
        stem = step_stem(server, request.rate_per_s, cost, round_number, rounds, attempt,
                         workload.key)
        files = step_files(self.raw_dir, stem, measured=False)
        files.oha.parent.mkdir(parents=True, exist_ok=True)
        return tool_failure(TOOL, self.backend.run_oha(request, files.oha, self.loadgen_cpus))

    def measure(self, server: str, request: OhaRequest, purpose: StepPurpose,
                round_number: int, rounds: int, probe: ResourceProbe,
                attempt: int = 1, workload: Workload = PLAINTEXT,
                database_probe: ResourceProbe | None = None,
                profiler: ServerProfiler | None = None) -> StepOutcome:
        """One fixed-rate step, the server sampled throughout, and the database it reads
        too when there is one; profiled around that when the server has a profiler (never
        its warm-up)."""
        stem = step_stem(server, request.rate_per_s, purpose is StepPurpose.COST,
                         round_number, rounds, attempt, workload.key)
        files = step_files(self.raw_dir, stem)
        files.oha.unlink(missing_ok=True)

        def run() -> WrkOutcome:
            return self.backend.run_oha(request, files.oha, self.loadgen_cpus)

        database_sampler = None if database_probe is None else sampler_for(database_probe)
        sampler = sampler_for(probe)
        (outcome, usage), profile = profiled(profiler, files, lambda: sampled_run(
            run, sampler, TOOL, database_sampler))
        return StepOutcome(server, request.rate_per_s, request.connections, purpose,
                           files.oha if files.oha.exists() else None,
                           write_resources(files, usage), tool_failure(TOOL, outcome),
                           round_number, attempt, workload,
                           profile_path=profile.record_path if profile else None)
