"""Progress of make latency: what will run and about how long, before any load."""

from __future__ import annotations

from typing import TextIO

from httplab.running.latency_plan import LatencyPlan
from httplab.running.progress import (START_AND_VERIFY_S, Progress, format_seconds,
                                      profiler_text, rounds_text)


def latency_seconds(plan: LatencyPlan) -> int:
    """About how long: every start (primer, warm-up and its steps, the cost step when
    COST_RATE is given), and a second pass of one step per server for the cost otherwise.
    A search's step count is a typical one: the real count depends on where it breaks."""
    bench = plan.bench
    unmeasured = sum(phase.duration_s for phase in bench.phases)
    cost_steps = 1 if plan.cost_rate is not None else 0
    if plan.url:
        return bench.repeat * (plan.steps_per_server + cost_steps) * plan.seconds_per_step
    per_start = START_AND_VERIFY_S + unmeasured + \
        (plan.steps_per_server + cost_steps) * plan.seconds_per_step
    second_pass = 0 if plan.cost_rate is not None else \
        START_AND_VERIFY_S + unmeasured + plan.cost_warmup_s + bench.duration_s
    return bench.starts * per_start + bench.repeat * len(bench.servers) * second_pass


class LatencyProgress(Progress):
    def __init__(self, plan: LatencyPlan, stream: TextIO | None = None):
        super().__init__(plan.bench, stream)
        self.latency = plan
        self.remaining_s = latency_seconds(plan)

    def announce(self, backend: str) -> None:
        plan, bench = self.latency, self.latency.bench
        target = plan.url or ", ".join(server.key for server in bench.servers)
        rates = ("auto: from 1000/s, x2 until a step breaks, then halved to within 5 %"
                 if plan.rates.auto else ", ".join(f"{rate:g}" for rate in plan.rates.fixed))
        repeats = rounds_text(bench)
        phases = ", ".join(f"{phase.name} {phase.duration}" for phase in bench.phases)
        self.say(f"httplab latency: {target} on backend {backend}{repeats}; rates {rates}; "
                 f"target p99 <= {plan.slo_p99_us / 1000:g} ms; each step "
                 f"{plan.step_warmup_s}s unmeasured + {bench.duration} measured (oha)"
                 f"{profiler_text(bench)}")
        if not plan.url:
            self.say(f"httplab latency: before the steps: {phases or 'nothing (cold)'}")
        self.say(f"httplab latency: about {format_seconds(self.remaining_s)} in all (a "
                 f"search runs about {plan.steps_per_server} steps), plus any image or jar build")
