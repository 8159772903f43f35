"""REPEAT=auto's rule: driven round by round by a fake measure with log-normal noise of a
known spread, it stops about when precision.rounds_for predicts, never past MAX_REPEAT, and
names a pair that never narrowed; and its answer in each case, by table."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from httplab.bench_settings import ROUND_METRICS
from httplab.model import AutoRepeat, RunKind
from httplab.results.adaptive_rounds import (RULED_METRICS, RoundsWhy, next_round,
                                             pair_precisions)
from httplab.results.paired_ratio import MIN_ROUNDS, paired_ratio
from httplab.results.precision import rounds_for
from httplab.results.variants import ComparedMetric, VariantComparison

RATE = ComparedMetric.REQUESTS_PER_SEC
SEEDS = range(300)


def _comparison(base, other, other_key="alpha@jdk17", metric=RATE):
    return VariantComparison("alpha", "JDK", "alpha", other_key, metric,
                             paired_ratio(base, other), threads=10, connections=500)


class NoisyPair:
    """A fake measure of two variants, round by round: the host's drift moves both (and
    cancels in their ratio); the other's own noise is log-normal with sd `log_sd`."""

    def __init__(self, log_sd: float, seed: int, key: str = "alpha@jdk17"):
        self.log_sd, self.random, self.key = log_sd, random.Random(seed), key
        self.base: dict[int, float] = {}
        self.other: dict[int, float] = {}

    def measure(self, round_number: int) -> None:
        drift = self.random.gauss(0, 0.2)
        self.base[round_number] = 1000 * math.exp(drift)
        self.other[round_number] = 1100 * math.exp(drift + self.random.gauss(0, self.log_sd))

    def comparison(self) -> VariantComparison:
        return _comparison(self.base, self.other, self.key)


def _run(pairs: list[NoisyPair], rule: AutoRepeat):
    """The rounds loop as the runner runs it: a round, then the rule's answer."""
    round_number = 0
    while True:
        round_number += 1
        for pair in pairs:
            pair.measure(round_number)
        decision = next_round([pair.comparison() for pair in pairs], rule, RunKind.BENCH,
                              round_number)
        if not decision.go_on:
            return decision


def _stops(log_sd: float, precision: float) -> tuple[int, list[int]]:
    """The rounds the formula predicts, and the rounds the rule stopped at over SEEDS."""
    rule = AutoRepeat(precision, 100, "requests_per_sec")
    return (rounds_for(log_sd, precision),
            [_run([NoisyPair(log_sd, seed)], rule).rounds for seed in SEEDS])


@pytest.mark.parametrize("log_sd, precision", [(0.03, 0.05), (0.04, 0.05), (0.05, 0.05),
                                               (0.01, 0.02)])
def test_the_median_stop_over_many_seeds_is_within_a_round_of_the_formula(log_sd, precision):
    predicted, stops = _stops(log_sd, precision)
    assert 4 <= predicted <= 7
    assert abs(statistics.median(stops) - predicted) <= 1, (predicted, sorted(stops))
    assert min(stops) >= MIN_ROUNDS


@pytest.mark.parametrize("log_sd", [0.06, 0.08])
def test_with_more_rounds_predicted_it_stops_early_rather_than_late(log_sd):
    """Stopping at the first round whose interval is narrow enough favours rounds that
    happen to agree: the median stop falls below the prediction, by at most 2 here."""
    predicted, stops = _stops(log_sd, 0.05)
    assert predicted >= 9
    assert predicted - 2 <= statistics.median(stops) <= predicted, (predicted, sorted(stops))


def test_it_never_runs_past_max_repeat_and_names_the_pair_that_never_narrowed():
    rule = AutoRepeat(0.01, 6, "requests_per_sec")
    for seed in range(50):
        quiet, loud = NoisyPair(0.001, seed, "alpha@jdk17"), NoisyPair(0.3, seed, "alpha@jdk21")
        decision = _run([quiet, loud], rule)
        assert (decision.rounds, decision.why) == (6, RoundsWhy.LIMIT)
        assert decision.widest.comparison.other == "alpha@jdk21"
        assert not decision.widest.narrowed and decision.widest.log_sd > 0.1


ROUNDS = {1: 100.0, 2: 100.0, 3: 100.0, 4: 100.0}
CLOSE = {1: 110.0, 2: 110.5, 3: 109.5, 4: 110.0}  # ±1 %: narrow at 5 %
WIDE = {1: 150.0, 2: 80.0, 3: 120.0, 4: 95.0}
CLEAR_BUT_WIDE = {1: 200.0, 2: 260.0, 3: 230.0, 4: 210.0}  # surely faster, ±20 %
RULE = AutoRepeat(0.05, 10, "requests_per_sec")


@pytest.mark.parametrize("others, rounds, rule, go_on, why", [
    ([CLOSE], 2, RULE, True, RoundsWhy.TOO_FEW),
    ([CLOSE], 3, RULE, False, RoundsWhy.NARROW),
    ([CLOSE, WIDE], 4, RULE, True, RoundsWhy.TOO_WIDE),
    ([CLOSE, WIDE], 10, RULE, False, RoundsWhy.LIMIT),
    ([CLEAR_BUT_WIDE], 4, RULE, True, RoundsWhy.TOO_WIDE),  # its width decides, not its verdict
    ([{1: 110.0, 2: 111.0}], 4, RULE, True, RoundsWhy.TOO_WIDE),  # 2 paired: no interval yet
    ([{}], 4, RULE, False, RoundsWhy.NO_PAIR),  # measured on one side only: nothing to narrow
    ([], 3, RULE, False, RoundsWhy.NO_PAIR),
])
def test_the_rules_answer(others, rounds, rule, go_on, why):
    comparisons = [_comparison(ROUNDS, other, f"alpha@jdk{index}")
                   for index, other in enumerate(others)]
    decision = next_round(comparisons, rule, RunKind.BENCH, rounds)
    assert (decision.go_on, decision.why) == (go_on, why)


def test_the_widest_pair_is_the_one_without_an_interval_before_any_wide_one():
    comparisons = [_comparison(ROUNDS, WIDE, "alpha@jdk17"),
                   _comparison(ROUNDS, {1: 110.0, 2: 111.0}, "alpha@jdk21")]
    assert next_round(comparisons, RULE, RunKind.BENCH, 4).widest.comparison.other \
        == "alpha@jdk21"


def test_only_the_chosen_metrics_pairs_count():
    cpu = _comparison(ROUNDS, WIDE, metric=ComparedMetric.CPU_PER_REQUEST)
    rate = _comparison(ROUNDS, CLOSE)
    assert next_round([cpu, rate], RULE, RunKind.BENCH, 3).why is RoundsWhy.NARROW
    by_cpu = AutoRepeat(0.05, 10, "cpu_per_request")
    assert next_round([cpu, rate], by_cpu, RunKind.BENCH, 3).why is RoundsWhy.TOO_WIDE
    assert [pair.comparison.metric for pair in pair_precisions([cpu, rate], by_cpu,
                                                               RunKind.BENCH)] == [
        ComparedMetric.CPU_PER_REQUEST]


def test_every_metric_setting_names_a_figure_of_each_kind_of_run():
    assert {kind: set(metrics) for kind, metrics in RULED_METRICS.items()} == {
        RunKind.BENCH: set(ROUND_METRICS), RunKind.LATENCY: set(ROUND_METRICS)}
    assert RULED_METRICS[RunKind.LATENCY]["requests_per_sec"] is \
        ComparedMetric.MAX_SUSTAINABLE_RATE


def test_a_pair_reports_the_rounds_its_spread_still_needs():
    (pair,) = pair_precisions([_comparison(ROUNDS, WIDE)], RULE, RunKind.BENCH)
    assert pair.rounds == 4 and not pair.narrowed
    assert pair.rounds_expected == rounds_for(pair.log_sd, 0.05) > 4
