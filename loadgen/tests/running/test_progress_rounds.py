"""REPEAT=auto in progress: the announcement's rounds, each round's line (why another runs or
none does, the widest pair, its half-width and the rounds its spread still needs)."""

from __future__ import annotations

import io

from httplab.model import AutoRepeat, RunKind
from httplab.results.adaptive_rounds import calibrated_expectation, next_round
from httplab.results.calibration import HostCalibration, NoiseMetric
from httplab.results.paired_ratio import paired_ratio
from httplab.results.precision import rounds_for
from httplab.results.variants import ComparedMetric, VariantComparison
from httplab.running.plan import make_plan
from httplab.running.progress import Progress, calibrated_line, round_decision_line

from tests.support.plans import CPUS, KNOWN, plan_settings

RULE = AutoRepeat(0.05, 10, "requests_per_sec")
BASE = {1: 100.0, 2: 100.0, 3: 100.0, 4: 100.0}


def _line(other: dict[int, float], rounds: int) -> str:
    comparison = VariantComparison("alpha", "JDK", "alpha@jdk17", "alpha",
                                   ComparedMetric.REQUESTS_PER_SEC, paired_ratio(BASE, other),
                                   threads=10, connections=500)
    return round_decision_line(next_round([comparison], RULE, RunKind.BENCH, rounds), RULE)


def test_a_wide_round_names_the_widest_pair_its_reach_and_the_rounds_expected():
    other = {1: 120.0, 2: 100.0, 3: 110.0, 4: 104.0}
    figures = paired_ratio(BASE, other)
    more = rounds_for(figures.log_sd, 0.05) - 4
    assert _line(other, 4) == (
        "httplab: round 4 of at most 10 done: wider than ±5.0 %: another round; the widest "
        "pair: alpha against alpha@jdk17 (requests_per_sec, 10 threads, 500 connections): "
        f"±{figures.half_width * 100:.1f} % over 4 paired rounds, about {more} more rounds "
        f"expected at its spread ({figures.log_sd * 100:.1f} % from round to round)")


def test_before_the_third_round_it_says_an_interval_needs_three():
    assert _line({1: 110.0}, 1).startswith(
        "httplab: round 1 of at most 10 done: an interval needs 3 rounds: another round; the "
        "widest pair: alpha against alpha@jdk17 (requests_per_sec, 10 threads, 500 "
        "connections): no interval yet over 1 paired rounds, its spread not known yet")


def test_the_announcement_gives_the_range_of_rounds_and_the_rule():
    plan = make_plan(plan_settings("alpha", "2", "10", "1s", jdk="17,25", repeat="auto"),
                     KNOWN, CPUS)
    output = io.StringIO()
    Progress(plan, output).announce("fake")
    assert " x 3 to 10 rounds (REPEAT=auto: more while a pair's requests_per_sec is wider " \
           "than ±5.0 %)" in output.getvalue()


def test_the_time_announced_for_auto_is_the_most_it_may_take():
    plan = make_plan(plan_settings("alpha", "2", "10", "1s", jdk="17,25", repeat="auto"),
                     KNOWN, CPUS)
    output = io.StringIO()
    Progress(plan, output).announce("fake")
    assert "httplab: at most " in output.getvalue()


def _calibration(log_sd: float) -> HostCalibration:
    return HostCalibration("2026-11-28T23-40-00Z", 5,
                           ((NoiseMetric.REQUESTS_PER_SEC, log_sd),
                            (NoiseMetric.CPU_PER_REQUEST, 0.2)))


def test_the_hosts_calibration_says_up_front_how_many_rounds_to_expect():
    expected = calibrated_expectation(_calibration(0.03), RULE)
    assert expected.rounds == rounds_for(0.03, 0.05)
    assert calibrated_line(expected, RULE) == (
        "httplab: REPEAT=auto: this host's calibration of 2026-11-28T23-40-00Z (5 rounds) "
        "spread requests_per_sec by 3.0 % from round to round: ±5.0 % expected after about "
        f"{expected.rounds} rounds")


def test_a_calibration_too_noisy_for_max_repeat_says_where_the_run_will_stop():
    cpu_rule = AutoRepeat(0.05, 10, "cpu_per_request")
    expected = calibrated_expectation(_calibration(0.03), cpu_rule)
    assert expected.log_sd == 0.2 and expected.rounds > 10
    assert calibrated_line(expected, cpu_rule).endswith(
        f"±5.0 % needs about {expected.rounds} rounds, more than MAX_REPEAT=10: expect the "
        "run to stop at 10 with its pairs wider")


def test_without_a_calibration_it_says_how_to_get_one():
    assert calibrated_expectation(None, RULE) is None
    assert "make calibrate measures its noise" in calibrated_line(None, RULE)
