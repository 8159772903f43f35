"""One line per step of a bench, with the time left, so long runs show where they are."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from httplab.model import PLAINTEXT
from httplab.running.plan import BenchPlan

# Rough per-server costs besides the load itself, for the estimate only.
START_AND_VERIFY_S = 15


def profiler_text(plan: BenchPlan) -> str:
    """'; async-profiler in netty+profiled, armeria+profiled (PROFILE_EVENT=cpu)' when some
    server is profiled, else nothing."""
    profiled = [server.key for server in plan.servers if server.profiled]
    if not profiled:
        return ""
    return f"; async-profiler in {', '.join(profiled)} (PROFILE_EVENT={plan.profile_event})"


def format_seconds(seconds: float) -> str:
    seconds = max(int(round(seconds)), 0)
    minutes, rest = divmod(seconds, 60)
    return f"{minutes}m {rest:02d}s" if minutes else f"{rest}s"


class Progress:
    def __init__(self, plan: BenchPlan, stream: TextIO | None = None):
        self.plan, self.stream = plan, stream or sys.stdout  # the one of when it runs
        self.started = time.monotonic()
        self.remaining_s = plan.load_seconds + START_AND_VERIFY_S * plan.starts

    def say(self, message: str) -> None:
        print(message, file=self.stream, flush=True)

    def announce(self, backend: str) -> None:
        plan = self.plan
        names = ", ".join(server.key for server in plan.servers)
        threads = ", ".join(str(count) for count in plan.threads)
        repeats = f" x {plan.repeat} rounds" if plan.repeat > 1 else ""
        phases = ", ".join(f"{phase.name} {phase.duration}" for phase in plan.phases)
        connections = ", ".join(str(count) for count in plan.connections)
        fairness = "; h2load after each run (fairness)" if plan.fairness else ""
        workloads = "" if plan.workloads == (PLAINTEXT,) else \
            " x workloads " + ", ".join(workload.label for workload in plan.workloads)
        self.say(f"httplab: {len(plan.servers)} servers ({names}){workloads} x threads "
                 f"{threads} x {connections} connections x {plan.duration}{repeats} on backend "
                 f"{backend}; before measuring{' each workload' if workloads else ''}: "
                 f"{phases or 'nothing (cold)'}{fairness}{profiler_text(plan)}")
        self.say(f"httplab: {format_seconds(plan.load_seconds)} of load; about "
                 f"{format_seconds(self.remaining_s)} in all, plus any image or jar build")

    def step(self, index: int, server: str, message: str) -> None:
        elapsed = format_seconds(time.monotonic() - self.started)
        self.say(f"[{index}/{self.plan.starts}] {server}: {message} "
                 f"(elapsed {elapsed}, about {format_seconds(self.remaining_s)} left)")

    def skipped(self, server: str, reason: str) -> None:
        """A variant that is never started: it takes no place in the count of starts."""
        self.say(f"[-] {server}: not applicable: {reason}")

    def spent(self, seconds: float) -> None:
        self.remaining_s = max(self.remaining_s - seconds, 0)
