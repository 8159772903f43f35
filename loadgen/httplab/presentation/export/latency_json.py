"""What results.json adds to a latency run's steps for its readers, derived and not read
back: each step's cost per answered request and which CPU limited it (the bench's rule,
results/bottleneck.py), as results.md shows them. Pure."""

from __future__ import annotations

from typing import Any

from httplab.model import BenchResult
from httplab.results.step_figures import step_figures
from httplab.results.step_bottleneck import step_bottleneck

COST_KEYS = ("cpu_us_per_request", "context_switches_per_request")
BOTTLENECK_KEY = "limited_by"


def with_step_figures(latency: dict[str, Any], result: BenchResult) -> dict[str, Any]:
    """The "latency" object of results.json with each step's derived figures added."""
    steps = []
    for data, step in zip(latency["steps"], result.latency.steps):
        figures, verdict = step_figures(step), step_bottleneck(step, result)
        steps.append({**data, COST_KEYS[0]: figures.cpu_us_per_request,
                      COST_KEYS[1]: figures.context_switches_per_request,
                      BOTTLENECK_KEY: {"limit": verdict.limit.value, "detail": verdict.detail}})
    return {**latency, "steps": steps}
