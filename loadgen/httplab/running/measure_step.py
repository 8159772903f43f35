"""One fixed-rate step against a started server: oha's JSON named by convention, and the
server's CPU and memory sampled while it measures (as measure.py does for wrk)."""

from __future__ import annotations

import time
from pathlib import Path

from httplab.loadtools.oha.command import OhaRequest
from httplab.model import StepOutcome, StepPurpose
from httplab.run_layout import RunFiles, step_files, step_stem
from httplab.running.backends.base import Backend, StartedServer, WrkOutcome
from httplab.running.measure import TICKS_PER_SECOND, host_cpu, with_load_figures, \
    write_resources
from httplab.running.resources.probes import ResourceProbe
from httplab.running.resources.sampler import DEFAULT_INTERVAL_S, Sampler, busy_cores


class StepMeasurer:
    def __init__(self, backend: Backend, raw_dir: Path, loadgen_cpus: str | None):
        self.backend, self.raw_dir, self.loadgen_cpus = backend, raw_dir, loadgen_cpus

    def warm(self, server: str, request: OhaRequest, cost: bool, round_number: int,
             rounds: int, attempt: int = 1) -> str | None:
        """The unmeasured run at the step's rate; its failure, if any."""
        stem = step_stem(server, request.rate_per_s, cost, round_number, rounds, attempt)
        files = step_files(self.raw_dir, stem, measured=False)
        files.oha.parent.mkdir(parents=True, exist_ok=True)
        return _failure(self.backend.run_oha(request, files.oha, self.loadgen_cpus))

    def measure(self, server: str, request: OhaRequest, purpose: StepPurpose,
                round_number: int, rounds: int, probe: ResourceProbe,
                attempt: int = 1) -> StepOutcome:
        stem = step_stem(server, request.rate_per_s, purpose is StepPurpose.COST,
                         round_number, rounds, attempt)
        files = step_files(self.raw_dir, stem)
        files.oha.unlink(missing_ok=True)
        outcome, resources = self._sampled(request, files, probe)
        return StepOutcome(server, request.rate_per_s, request.connections, purpose,
                           files.oha if files.oha.exists() else None, resources,
                           _failure(outcome), round_number, attempt)

    def _sampled(self, request: OhaRequest, files: RunFiles,
                 probe: ResourceProbe) -> tuple[WrkOutcome, Path | None]:
        """oha with the server sampled throughout and the host's CPU read around it."""
        host_before, started_at = host_cpu(), time.monotonic()
        sampler = Sampler(probe, getattr(probe, "interval_s", DEFAULT_INTERVAL_S))
        with sampler:
            outcome = self.backend.run_oha(request, files.oha, self.loadgen_cpus)
        wall_s, host_after = time.monotonic() - started_at, host_cpu()
        host_busy = (busy_cores(host_before, host_after, wall_s, TICKS_PER_SECOND)
                     if host_before and host_after else None)
        usage = with_load_figures(sampler.usage(), outcome.cpu_seconds, wall_s, host_busy,
                                  tool="oha")
        return outcome, write_resources(files, usage)


def _failure(outcome: WrkOutcome) -> str | None:
    if outcome.exit_code == 0:
        return None
    return f"oha exited with {outcome.exit_code}: {outcome.stderr or 'no message'}"
