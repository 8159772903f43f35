"""Runs make latency's plan: each server started, verified, primed and warmed as by make
bench, then a series of fixed-rate steps against it; or the series alone against a server
the user started (URL=).

Which rate comes next is rate_search's choice, from how the steps so far ended; reading a
step's output to say how it ended is the `judge` the command hands in (results/)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from httplab.loadtools.oha.command import OhaRequest
from httplab.model import PLAINTEXT, RateStep, ServerRecord, StepPurpose, Workload
from httplab.outcomes import ServerOutcome, StepOutcome
from httplab.running.backends.base import Backend, StartedServer
from httplab.running.latency_plan import LatencyPlan
from httplab.running.measure_step import StepMeasurer
from httplab.running.plan import target_url
from httplab.running.profiling.control import ServerProfiler
from httplab.running.progress import Progress
from httplab.running.rate_search import History, RateSpec, next_rate
from httplab.running.resources.probes import ResourceProbe, UnavailableProbe
from httplab.running.runner import Runner

Judge = Callable[[StepOutcome], RateStep]  # reads and judges a step's output
URL_SERVER = "url"  # the key of a server the user started (URL=)


@dataclass(frozen=True)
class Series:
    """The steps to run against each server: a list or the search, for one purpose."""

    rates: RateSpec
    purpose: StepPurpose
    cost_rate: float | None = None  # COST_RATE: one step at it after the others, same start
    warmup_s: int | None = None  # the unmeasured run before each step; None: STEP_WARMUP


@dataclass(frozen=True)
class Step:
    """Where a series' steps go: the server, its URL for the workload, its probe and round."""

    server: str
    url: str
    probe: ResourceProbe
    round_number: int
    stopped: Callable[[], str | None]
    workload: Workload = PLAINTEXT
    profiler: ServerProfiler | None = None  # PROFILE=1: around each measured step


class LatencyRunner(Runner):
    def __init__(self, backend: Backend, plan: LatencyPlan, series: Series, raw_dir: Path,
                 progress: Progress, judge: Judge,
                 on_server_done: Callable[[ServerOutcome], None]):
        super().__init__(backend, plan.bench, raw_dir, progress, on_server_done)
        self.latency, self.series, self.judge = plan, series, judge
        self.steps = StepMeasurer(backend, raw_dir, plan.bench.loadgen_cpus)

    def measure(self, index: int, started: StartedServer, round_number: int,
                record: ServerRecord, workload: Workload) -> ServerOutcome:
        url = target_url(started.manifest, self.backend.target_address, workload)
        probe = self.backend.resource_probe(started)
        stopped = lambda: self.stopped(started)  # noqa: E731
        step = Step(record.name, url, probe, round_number, stopped, workload, self.profiler)
        return ServerOutcome(record, (), self._series(index, step))

    def _database_probe(self) -> ResourceProbe | None:
        """The database the server reads, sampled beside it; None without one."""
        if self.database is None:
            return None
        return self.backend.database.resource_probe(self.database)

    def failed_outcome(self, record: ServerRecord, reason: str, round_number: int,
                       workload: Workload) -> ServerOutcome:
        rate = next_rate(self.series.rates, ()) or 0.0  # the step it would have run first
        step = StepOutcome(record.name, rate, 0, self.series.purpose, failure=reason,
                           repeat=round_number, workload=workload)
        return ServerOutcome(record, (), (step,))

    def run_url(self, record: ServerRecord, url: str) -> list[ServerOutcome]:
        """The series against a server the lab did not start: nothing to start, verify or
        sample; every round in turn."""
        probe = UnavailableProbe("the server was started by the user (URL=), not the lab")
        outcomes = []
        for round_number in range(1, self.plan.repeat + 1):
            steps = self._series(round_number, Step(record.name, url, probe, round_number,
                                                    lambda: None))
            outcomes.append(ServerOutcome(record, (), steps))
            self.on_server_done(outcomes[-1])
        return outcomes

    def _series(self, index: int, step: Step) -> tuple[StepOutcome, ...]:
        outcomes: list[StepOutcome] = []
        history: History = ()
        while (rate := next_rate(self.series.rates, history)) is not None:
            attempt = 1 + sum(1 for earlier, _ in history if earlier == rate)
            outcome = self._checked_step(index, step, rate, self.series.purpose, attempt)
            outcomes.append(outcome)
            history += ((rate, self.judge(outcome).verdict),)
            if outcome.failure and step.stopped():
                return tuple(outcomes)
        if self.series.cost_rate is not None:
            outcomes.append(self._checked_step(index, step, self.series.cost_rate,
                                               StepPurpose.COST))
        return tuple(outcomes)

    def _checked_step(self, index: int, at: Step, rate: float, purpose: StepPurpose,
                      attempt: int = 1) -> StepOutcome:
        """A step, unless the server has stopped; its verdict said as it ends."""
        server = at.server
        if problem := at.stopped():
            return StepOutcome(server, rate, 0, purpose, failure=f"{problem} before this step",
                               repeat=at.round_number, attempt=attempt, workload=at.workload)
        outcome = self._step(index, at, rate, purpose, attempt)
        step = self.judge(outcome)
        self.progress.step(index, server, f"{rate:g}/s {step.verdict.value}: {step.reason}")
        return outcome

    def _step(self, index: int, at: Step, rate: float, purpose: StepPurpose,
              attempt: int) -> StepOutcome:
        plan, rounds = self.latency, self.plan.repeat
        server, url, round_number, workload = at.server, at.url, at.round_number, at.workload
        cost = purpose is StepPurpose.COST
        connections = plan.connections_for(rate)
        again = " (again, to confirm it broke)" if attempt > 1 else ""
        self.progress.step(index, server, f"oha -q {rate:g} -c {connections} -z "
                                          f"{self.plan.duration_s}s{again}"
                                          f"{self._of_rounds(round_number)}")
        warmup_s = plan.step_warmup_s if self.series.warmup_s is None else self.series.warmup_s
        if warmup_s:
            warm = OhaRequest(rate, warmup_s, connections, url)
            if failure := self.steps.warm(server, warm, cost, round_number, rounds, attempt,
                                          workload):
                self.progress.step(index, server, f"warm-up at this rate: {failure}")
        request = OhaRequest(rate, self.plan.duration_s, connections, url)
        outcome = self.steps.measure(server, request, purpose, round_number, rounds, at.probe,
                                     attempt, workload, self._database_probe(), at.profiler)
        self.progress.spent(warmup_s + self.plan.duration_s)
        if outcome.failure:
            self.progress.step(index, server, outcome.failure)
        return outcome
