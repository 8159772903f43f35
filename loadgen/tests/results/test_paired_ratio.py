"""The paired ratio of two variants (results/paired_ratio.py): the t quantile against
published values, the interval's coverage on synthetic rounds with a known ratio, and what
it gives with too few rounds."""

import math
import random

import pytest

from httplab.results.paired_ratio import (CONFIDENCE, MIN_ROUNDS, paired_ratio, t_cdf,
                                          t_quantile)

# Student's t, 0.975 quantile (two-sided 95 %), as every table prints it.
KNOWN_T = {1: 12.706, 2: 4.303, 4: 2.776, 9: 2.262, 30: 2.042}


@pytest.mark.parametrize("df, expected", KNOWN_T.items())
def test_the_t_quantile_matches_the_tables(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=5e-4)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=5e-4)


def test_the_t_cdf_is_symmetric_and_inverts_the_quantile():
    assert t_cdf(0.0, 3) == pytest.approx(0.5)
    for df in (1, 3, 7):
        for p in (0.6, 0.9, 0.995):
            assert t_cdf(t_quantile(p, df), df) == pytest.approx(p, abs=1e-9)


def test_the_ratio_is_of_the_medians_and_the_interval_brackets_the_paired_ratios():
    base = {1: 100.0, 2: 120.0, 3: 110.0}
    other = {1: 90.0, 2: 106.0, 3: 100.0}
    figures = paired_ratio(base, other)
    assert figures.ratio == pytest.approx(100 / 110)
    assert figures.rounds == 3 and figures.has_interval
    logs = [math.log(other[r] / base[r]) for r in base]
    mean = sum(logs) / 3
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / 2)
    half = KNOWN_T[2] * sd / math.sqrt(3)
    assert figures.low == pytest.approx(math.exp(mean - half), rel=1e-3)
    assert figures.high == pytest.approx(math.exp(mean + half), rel=1e-3)


@pytest.mark.parametrize("rounds", [1, 2])
def test_too_few_rounds_give_a_ratio_and_no_interval(rounds):
    base = {r: 100.0 + r for r in range(1, rounds + 1)}
    figures = paired_ratio(base, {r: value * 1.1 for r, value in base.items()})
    assert figures.ratio == pytest.approx(1.1)
    assert (figures.low, figures.high, figures.rounds) == (None, None, rounds)
    assert not figures.has_interval and figures.rounds_needed == MIN_ROUNDS == 3


def test_rounds_are_paired_by_their_number_and_unknown_figures_left_out():
    figures = paired_ratio({1: 100.0, 2: 100.0, 3: None, 4: 100.0},
                           {2: 110.0, 3: 110.0, 4: 110.0, 5: 0.0})
    assert figures.rounds == 2 and not figures.has_interval
    assert paired_ratio({}, {1: 1.0}).ratio is None


def test_the_interval_covers_the_true_ratio_at_its_stated_rate():
    """2000 runs of 5 rounds: each round's host drift moves both variants alike, and each
    figure has its own log-normal noise (sd 0.1); the true ratio is 0.9."""
    rng, true_ratio, trials, covered = random.Random(31), 0.9, 2000, 0
    for _ in range(trials):
        drift = [rng.gauss(0, 0.3) for _ in range(5)]
        base = {r: 1e4 * math.exp(d + rng.gauss(0, 0.1)) for r, d in enumerate(drift, 1)}
        other = {r: 1e4 * true_ratio * math.exp(d + rng.gauss(0, 0.1))
                 for r, d in enumerate(drift, 1)}
        figures = paired_ratio(base, other)
        covered += figures.low <= true_ratio <= figures.high
    assert covered / trials == pytest.approx(CONFIDENCE, abs=0.02)
