"""One line per step of a bench, with the time left, so long runs show where they are;
with REPEAT=auto, one line after each round saying why another runs or none does."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from httplab.model import PLAINTEXT, AutoRepeat
from httplab.results.adaptive_rounds import (CalibratedExpectation, PairPrecision,
                                             RoundsDecision, RoundsWhy)
from httplab.results.paired_ratio import MIN_ROUNDS
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


ROUND_WHY = {
    RoundsWhy.TOO_FEW: f"an interval needs {MIN_ROUNDS} rounds: another round",
    RoundsWhy.TOO_WIDE: "wider than ±{precision}: another round",
    RoundsWhy.NARROW: "every pair within ±{precision}: no more rounds",
    RoundsWhy.LIMIT: "still wider than ±{precision} at MAX_REPEAT: no more rounds",
    RoundsWhy.NO_PAIR: "no pair of variants measured on both sides: no more rounds",
}


def rounds_text(plan: BenchPlan) -> str:
    """' x 3 rounds', ' x 3 to 10 rounds (REPEAT=auto: ...)', or nothing for one round."""
    rule = plan.auto_repeat
    if rule is not None:
        return (f" x {MIN_ROUNDS} to {rule.max_repeat} rounds (REPEAT=auto: more while a pair's "
                f"{rule.metric} is wider than ±{percent_text(rule.precision)})")
    return f" x {plan.repeat} rounds" if plan.repeat > 1 else ""


def round_decision_line(decision: RoundsDecision, rule: AutoRepeat) -> str:
    """After a round of REPEAT=auto: the widest pair, how far its interval reaches, the rounds
    its spread still needs, and whether another round runs."""
    done = f"httplab: round {decision.rounds} of at most {rule.max_repeat} done"
    why = ROUND_WHY[decision.why].format(precision=percent_text(rule.precision))
    pair = decision.widest
    widest = "" if pair is None else f"; the widest pair: {pair_text(pair, rule)}"
    return f"{done}: {why}{widest}"


def pair_text(pair: PairPrecision, rule: AutoRepeat) -> str:
    """'alpha@jdk17 against alpha (requests_per_sec, 10 threads, 500 connections): ±7.3 % over
    4 paired rounds, about 3 more rounds expected at its spread (8.0 % from round to
    round)'."""
    one = pair.comparison
    point = "" if one.threads is None else f", {one.threads} threads, {one.connections} " \
                                           "connections"
    workload = "" if one.workload.is_plaintext else f", {one.workload.label}"
    reach = "no interval yet" if pair.half_width is None else f"±{percent_text(pair.half_width)}"
    return (f"{one.other} against {one.base} ({rule.metric}{workload}{point}): {reach} over "
            f"{pair.rounds} paired rounds, {expected_text(pair)}")


def expected_text(pair: PairPrecision) -> str:
    """How many more paired rounds the pair's spread (its log ratios' sd) is expected to
    need for the precision asked."""
    if pair.log_sd is None:
        return "its spread not known yet"
    spread = f"at its spread ({percent_text(pair.log_sd)} from round to round)"
    if pair.rounds_expected is None:
        return f"more than 1000 rounds expected {spread}"
    more = max(pair.rounds_expected - pair.rounds, 0)
    return f"about {more} more round{'s' if more != 1 else ''} expected {spread}"


def calibrated_line(expectation: CalibratedExpectation | None, rule: AutoRepeat) -> str:
    """Before a REPEAT=auto run: the rounds this host's newest calibration expects for the
    precision asked, or that there is none to go by."""
    if expectation is None:
        return ("httplab: REPEAT=auto: no calibration of this host to say up front how many "
                "rounds it needs (make calibrate measures its noise); rounds are decided as "
                "they go")
    found = expectation.calibration
    source = (f"this host's calibration of {found.created_utc} ({found.rounds} rounds) spread "
              f"{rule.metric} by {percent_text(expectation.log_sd)} from round to round")
    rounds = expectation.rounds
    if rounds is not None and rounds <= rule.max_repeat:
        return (f"httplab: REPEAT=auto: {source}: ±{percent_text(rule.precision)} expected "
                f"after about {rounds} rounds")
    needed = "more than 1000" if rounds is None else f"about {rounds}"
    return (f"httplab: REPEAT=auto: {source}: ±{percent_text(rule.precision)} needs "
            f"{needed} rounds, more than MAX_REPEAT={rule.max_repeat}: expect the run to stop "
            f"at {rule.max_repeat} with its pairs wider")


def percent_text(fraction: float) -> str:
    """0.05 -> '5.0 %'."""
    return f"{fraction * 100:.1f} %"


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
        repeats = rounds_text(plan)
        phases = ", ".join(f"{phase.name} {phase.duration}" for phase in plan.phases)
        connections = ", ".join(str(count) for count in plan.connections)
        fairness = "; h2load after each run (fairness)" if plan.fairness else ""
        workloads = "" if plan.workloads == (PLAINTEXT,) else \
            " x workloads " + ", ".join(workload.label for workload in plan.workloads)
        self.say(f"httplab: {len(plan.servers)} servers ({names}){workloads} x threads "
                 f"{threads} x {connections} connections x {plan.duration}{repeats} on backend "
                 f"{backend}; before measuring{' each workload' if workloads else ''}: "
                 f"{phases or 'nothing (cold)'}{fairness}{profiler_text(plan)}")
        most = " at most" if plan.auto_repeat else ""
        self.say(f"httplab:{most} {format_seconds(plan.load_seconds)} of load; about "
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
