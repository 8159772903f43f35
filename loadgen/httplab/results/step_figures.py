"""What make latency's tables, chart and results.json show of each fixed-rate step: its
latency and its costs per request. Pure.

A step's latency counts from each request's due time (oha's latency correction). Its cost
per request is the server's CPU time (or context switches) over the requests it answered,
as the bench's tables count it over wrk's completed requests."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import RateStep
from httplab.results.stats import per_request

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
    involuntary_switches_per_request: float | None = None

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
        per_request(usage.context_switches if usage else None, step.answered),
        per_request(usage.involuntary_switches if usage else None, step.answered))
