"""REPEAT=auto wired into a run: the runner's question after each round (another one?)
answered by the rule of results/adaptive_rounds.py over the results so far, and said as
progress. The runner only asks."""

from __future__ import annotations

from collections.abc import Callable

from httplab.model import AutoRepeat, BenchResult
from httplab.results.adaptive_rounds import next_round
from httplab.results.variants import variant_comparisons
from httplab.running.progress import Progress, round_decision_line
from httplab.running.runner import AnotherRound


def auto_rounds(rule: AutoRepeat | None, results_so_far: Callable[[], BenchResult],
                progress: Progress) -> AnotherRound | None:
    """REPEAT=auto's question for the runner (None: a fixed REPEAT, every round runs)."""
    if rule is None:
        return None

    def another_round(rounds: int) -> bool:
        result = results_so_far()
        decision = next_round(variant_comparisons(result), rule, result.kind, rounds)
        progress.say(round_decision_line(decision, rule))
        return decision.go_on

    return another_round


def fixed_rounds(count: int) -> AnotherRound:
    """Exactly `count` rounds: a pass of make latency that measures no figure of the rule's."""
    return lambda rounds: rounds < count
