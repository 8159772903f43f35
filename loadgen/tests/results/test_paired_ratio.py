"""The paired ratio of two variants (results/paired_ratio.py): the estimate at its interval's
centre, the t multiplier against published values, the p-value against the interval, the
interval's coverage on synthetic rounds with a known ratio, and what it gives with too few
rounds or rounds one side lacks."""

import math
import random

import pytest

from httplab.results.paired_ratio import (CONFIDENCE, MIN_ROUNDS, paired_ratio,
                                          t_multiplier)

# Student's t, 0.975 quantile (two-sided 95 %), as every table prints it, by rounds (df + 1).
KNOWN_T = {2: 12.706, 3: 4.303, 5: 2.776, 10: 2.262, 31: 2.042}


@pytest.mark.parametrize("rounds, expected", KNOWN_T.items())
def test_the_t_multiplier_matches_the_tables(rounds, expected):
    assert t_multiplier(rounds) == pytest.approx(expected, abs=5e-4)


def test_the_estimate_is_the_geometric_mean_of_the_paired_ratios_at_the_interval_centre():
    base = {1: 100.0, 2: 120.0, 3: 110.0}
    other = {1: 90.0, 2: 106.0, 3: 100.0}
    figures = paired_ratio(base, other)
    logs = [math.log(other[r] / base[r]) for r in base]
    mean = sum(logs) / 3
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / 2)
    half = KNOWN_T[3] * sd / math.sqrt(3)
    assert figures.ratio == pytest.approx(math.exp(mean))
    assert figures.rounds == 3 and figures.has_interval
    assert figures.low == pytest.approx(math.exp(mean - half), rel=1e-4)
    assert figures.high == pytest.approx(math.exp(mean + half), rel=1e-4)
    assert figures.log_sd == pytest.approx(sd)
    assert figures.half_width == pytest.approx(math.exp(half) - 1, rel=1e-3)


def test_a_round_one_side_lacks_is_listed_and_never_enters_the_estimate():
    """The issue's case: the base has rounds 1-5, the other 1-3. The ratio of the medians
    (170 / 100 = 1.70) lay outside the interval of the paired rounds (1.00-1.17)."""
    figures = paired_ratio({1: 160.0, 2: 160.0, 3: 100.0, 4: 100.0, 5: 100.0},
                           {1: 170.0, 2: 170.0, 3: 112.0})
    assert figures.rounds == 3 and figures.unpaired == (4, 5)
    assert figures.low < figures.ratio < figures.high
    assert figures.ratio == pytest.approx((170 / 160 * 170 / 160 * 112 / 100) ** (1 / 3))
    assert figures.ratio < 1.1


def test_rounds_the_host_decided_are_left_out_and_counted():
    base = {1: 100.0, 2: 100.0, 3: 100.0, 4: 100.0}
    other = {1: 110.0, 2: 111.0, 3: 50.0, 4: 109.0}
    figures = paired_ratio(base, other, left_out={3})
    assert figures.rounds == 3 and figures.lost_to_host == (3,)
    assert figures.ratio == pytest.approx(1.1, rel=0.01)


def test_the_p_value_is_below_005_exactly_when_the_interval_excludes_1():
    rng = random.Random(7)
    for _ in range(300):
        base = {r: 100.0 for r in range(1, 6)}
        other = {r: 100.0 * math.exp(rng.gauss(0.03, 0.05)) for r in base}
        figures = paired_ratio(base, other)
        excludes = figures.low > 1 or figures.high < 1
        assert (figures.p_value < 1 - CONFIDENCE) == excludes


def test_rounds_that_agree_exactly_have_no_spread():
    same = paired_ratio({1: 2.0, 2: 2.0, 3: 2.0}, {1: 2.0, 2: 2.0, 3: 2.0})
    assert (same.ratio, same.low, same.high, same.p_value) == (1.0, 1.0, 1.0, 1.0)
    doubled = paired_ratio({1: 1.0, 2: 2.0, 3: 3.0}, {1: 2.0, 2: 4.0, 3: 6.0})
    assert doubled.ratio == pytest.approx(2.0) and doubled.p_value == 0.0


@pytest.mark.parametrize("rounds", [1, 2])
def test_too_few_rounds_give_an_estimate_and_no_interval(rounds):
    base = {r: 100.0 + r for r in range(1, rounds + 1)}
    figures = paired_ratio(base, {r: value * 1.1 for r, value in base.items()})
    assert figures.ratio == pytest.approx(1.1)
    assert (figures.low, figures.high, figures.rounds, figures.p_value) == (
        None, None, rounds, None)
    assert not figures.has_interval and figures.rounds_needed == MIN_ROUNDS == 3


def test_rounds_are_paired_by_their_number_and_unknown_figures_left_out():
    figures = paired_ratio({1: 100.0, 2: 100.0, 3: None, 4: 100.0},
                           {2: 110.0, 3: 110.0, 4: 110.0, 5: 0.0})
    assert figures.rounds == 2 and not figures.has_interval
    assert figures.unpaired == (1, 3)
    assert paired_ratio({}, {1: 1.0}).ratio is None


@pytest.mark.parametrize("rounds", [3, 5, 10])
def test_the_interval_covers_the_true_ratio_at_its_stated_rate(rounds):
    """10,000 seeded runs: each round's host drift (sd 0.3) moves both variants alike, and
    each figure has its own log-normal noise (sd 0.1); the true ratio is 0.9. The binomial
    spread of the coverage over 10,000 runs is 0.2 %, so ±1 % is five of it."""
    trials, true_ratio, covered = 10_000, 0.9, 0
    for seed in range(trials):
        rng = random.Random(seed * 31 + rounds)
        drift = [rng.gauss(0, 0.3) for _ in range(rounds)]
        base = {r: 1e4 * math.exp(d + rng.gauss(0, 0.1)) for r, d in enumerate(drift, 1)}
        other = {r: 1e4 * true_ratio * math.exp(d + rng.gauss(0, 0.1))
                 for r, d in enumerate(drift, 1)}
        figures = paired_ratio(base, other)
        covered += figures.low <= true_ratio <= figures.high
    assert covered / trials == pytest.approx(CONFIDENCE, abs=0.01)
