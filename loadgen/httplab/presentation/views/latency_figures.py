"""What a make latency run's tables and chart show of each step, and which steps each of
them shows; for what both kinds show, a run's steps and maxima (none for a bench). Pure.

A step's latency counts from each request's due time (oha's latency correction). Its cost
per request is the server's CPU time (or context switches) over the requests it answered,
as the bench's tables count it over wrk's completed requests."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import BenchResult, RateStep, RunKind, StepPurpose, SustainedRate
from httplab.presentation.views.figures import per_request

US_PER_S = 1e6
LATENCY_COLUMNS = ("p50", "p90", "p99", "p99.9", "max")  # the order of StepFigures.latency_us


@dataclass(frozen=True)
class StepFigures:
    """A step's latency in µs (None: unknown, e.g. a step that failed) and its costs."""

    p50_us: float | None
    p90_us: float | None
    p99_us: float | None
    p999_us: float | None
    max_us: float | None
    cpu_us_per_request: float | None
    context_switches_per_request: float | None

    @property
    def latency_us(self) -> tuple[float | None, ...]:
        """In the order of LATENCY_COLUMNS."""
        return self.p50_us, self.p90_us, self.p99_us, self.p999_us, self.max_us


def step_figures(step: RateStep) -> StepFigures:
    latency, usage = step.latency, step.resources
    percentiles = [None if latency is None else latency.percentile(p)
                   for p in (50.0, 90.0, 99.0, 99.9)]
    return StepFigures(
        *percentiles, None if latency is None else latency.max_us,
        per_request(usage.cpu_seconds if usage else None, step.answered, US_PER_S),
        per_request(usage.context_switches if usage else None, step.answered))


def latency_servers(result: BenchResult) -> list[str]:
    """Every server with a step or a maximum, in the order they first ran."""
    return list(dict.fromkeys([*(step.server for step in result.latency.steps),
                               *(rate.server for rate in result.latency.maxima)]))


def is_reference(result: BenchResult, server: str) -> bool:
    record = result.server(server)
    return record is not None and record.is_reference


def rate_steps(result: BenchResult, server: str) -> list[RateStep]:
    """The server's search or list steps (the curve), by round, then by offered rate."""
    steps = [step for step in result.latency.steps_of(server)
             if step.purpose is not StepPurpose.COST]
    return sorted(steps, key=lambda step: (step.repeat, step.offered_rate))


def cost_steps(result: BenchResult, server: str) -> list[RateStep]:
    """The server's steps at the common rate, by round."""
    return sorted(result.latency.steps_of(server, StepPurpose.COST), key=lambda s: s.repeat)


def common_rate_costs(result: BenchResult, server: str) -> list[float]:
    """The server's CPU time per answered request (µs) at the common rate, one per round
    that measured it."""
    costs = (step_figures(step).cpu_us_per_request for step in cost_steps(result, server))
    return [cost for cost in costs if cost is not None]


# For what both kinds show (the profiles' layers, each server's colour, a summary's rows):
# a run's steps and maxima, none for a bench.
def run_steps(result: BenchResult) -> tuple[RateStep, ...]:
    return result.latency.steps if result.kind is RunKind.LATENCY else ()


def run_maxima(result: BenchResult) -> tuple[SustainedRate, ...]:
    return result.latency.maxima if result.kind is RunKind.LATENCY else ()
