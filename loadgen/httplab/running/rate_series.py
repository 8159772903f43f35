"""What make latency measures on each ready server: a series of fixed-rate steps; or the
series alone against a server the user started (URL=).

Which rate comes next is rate_search's choice, from how the steps so far ended; reading a
step's output to say how it ended is the `judge` the command hands in (results/)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from httplab.axes import H1, HTTP2_PROTOCOLS, TLS_PROTOCOLS
from httplab.loadtools.oha.command import OhaRequest, oha_label
from httplab.model import RateStep, ServerRecord, StepPurpose, Workload
from httplab.outcomes import ServerOutcome, StepOutcome
from httplab.running.latency_plan import LatencyPlan
from httplab.running.measure_step import StepMeasurer, StepTarget
from httplab.running.plan import target_url
from httplab.running.rate_search import History, RateSpec, next_rate, why_again
from httplab.running.resources.probes import UnavailableProbe
from httplab.running.run_context import RunContext, Serving

Judge = Callable[[StepOutcome], RateStep]  # reads and judges a step's output
URL_SERVER = "url"  # the key of a server the user started (URL=)


@dataclass(frozen=True)
class Series:
    """The steps to run against each server: a list or the search, for one purpose."""

    rates: RateSpec
    purpose: StepPurpose
    cost_rate: float | None = None  # COST_RATE: one step at it after the others, same start
    warmup_s: int | None = None  # the unmeasured run before each step; None: STEP_WARMUP


class RateSeries:
    """make latency's Measures: the series of fixed-rate steps against each server."""

    def __init__(self, context: RunContext, plan: LatencyPlan, series: Series, judge: Judge):
        self.context, self.latency, self.series, self.judge = context, plan, series, judge
        self.steps = StepMeasurer(context)

    def measure(self, serving: Serving, workload: Workload) -> ServerOutcome:
        backend = self.context.backend
        url = target_url(serving.started.manifest, backend.target_address, workload)
        target = StepTarget(serving.index, serving.server, url, serving.round_number,
                            backend.resource_probe(serving.started), serving.stopped, workload,
                            serving.database, serving.profiler,
                            serving.started.manifest.protocol)
        return ServerOutcome(serving.record, (), self._series(target))

    def failed(self, record: ServerRecord, reason: str, round_number: int,
               workload: Workload) -> ServerOutcome:
        rate = next_rate(self.series.rates, ()) or 0.0  # the step it would have run first
        step = StepOutcome(record.name, rate, 0, self.series.purpose, failure=reason,
                           repeat=round_number, workload=workload)
        return ServerOutcome(record, (), (step,))

    def run_url(self, record: ServerRecord, url: str,
                on_server_done: Callable[[ServerOutcome], None]) -> list[ServerOutcome]:
        """The series against a server the lab did not start: nothing to start, verify or
        sample; every round in turn."""
        probe = UnavailableProbe("the server was started by the user (URL=), not the lab")
        outcomes = []
        for round_number in range(1, self.context.rounds + 1):
            target = StepTarget(round_number, record.name, url, round_number, probe,
                                lambda: None)
            outcomes.append(ServerOutcome(record, (), self._series(target)))
            on_server_done(outcomes[-1])
        return outcomes

    def _series(self, target: StepTarget) -> tuple[StepOutcome, ...]:
        outcomes: list[StepOutcome] = []
        history: History = ()
        while (rate := next_rate(self.series.rates, history)) is not None:
            attempt = 1 + sum(1 for earlier, _ in history if earlier == rate)
            outcome = self._checked_step(target, rate, self.series.purpose, attempt,
                                         why_again(history, rate))
            outcomes.append(outcome)
            history += ((rate, self.judge(outcome).verdict),)
            if outcome.failure and target.stopped():
                return tuple(outcomes)
        if self.series.cost_rate is not None:
            outcomes.append(self._checked_step(target, self.series.cost_rate,
                                               StepPurpose.COST))
        return tuple(outcomes)

    def _checked_step(self, target: StepTarget, rate: float, purpose: StepPurpose,
                      attempt: int = 1, again: str | None = None) -> StepOutcome:
        """A step, unless the server has stopped; its verdict said as it ends."""
        if problem := target.stopped():
            return StepOutcome(target.server, rate, 0, purpose,
                               failure=f"{problem} before this step",
                               repeat=target.round_number, attempt=attempt,
                               workload=target.workload)
        outcome = self._step(target, rate, purpose, attempt, again)
        step = self.judge(outcome)
        self.context.progress.step(target.index, target.server,
                                   f"{rate:g}/s {step.verdict.value}: {step.reason}")
        return outcome

    def _oha_request(self, target: StepTarget, rate: float, duration_s: int,
                     connections: int) -> OhaRequest:
        """oha at a rate, speaking the server's protocol: HTTP/2 with the plan's streams for
        h2c and h2, the run's CA on https (RunContext.tls), a connection per request with
        KEEPALIVE=0 (refused over HTTP/2 before any load)."""
        http2, tls = target.protocol in HTTP2_PROTOCOLS, self.context.tls
        ca_file = (str(tls.ca_file) if tls is not None and target.protocol in TLS_PROTOCOLS
                   else None)
        return OhaRequest(rate, duration_s, connections, target.url, http2=http2,
                          streams=self.context.plan.streams if http2 else 1, ca_file=ca_file,
                          keepalive=self.latency.keepalive)

    def _step(self, target: StepTarget, rate: float, purpose: StepPurpose,
              attempt: int, again: str | None) -> StepOutcome:
        progress, duration_s = self.context.progress, self.context.plan.duration_s
        index, server = target.index, target.server
        connections = self.latency.connections_for(rate)
        again_words = f" (again, {again})" if again else ""
        request = self._oha_request(target, rate, duration_s, connections)
        named = None if target.protocol == H1 else target.protocol
        progress.step(index, server, f"{oha_label(request, named)}"
                                     f"{again_words}{self.context.of_rounds(target.round_number)}")
        warmup_s = self.latency.step_warmup_s if self.series.warmup_s is None \
            else self.series.warmup_s
        if warmup_s:
            warm = replace(request, duration_s=warmup_s)
            if failure := self.steps.warm(target, warm, purpose is StepPurpose.COST, attempt):
                progress.step(index, server, f"warm-up at this rate: {failure}")
        outcome = self.steps.measure(target, request, purpose, attempt)
        progress.spent(warmup_s + duration_s)
        if outcome.failure:
            progress.step(index, server, outcome.failure)
        return outcome
