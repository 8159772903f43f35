"""Which steps of a make latency run its tables and chart show, and each server's cost at
the common rate (each step's own figures: results/step_figures.py); for what both kinds
show, a run's steps and maxima (none for a bench). Pure."""

from __future__ import annotations

from httplab.model import BenchResult, RateStep, RunKind, StepPurpose, SustainedRate
from httplab.results.step_figures import step_figures


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
