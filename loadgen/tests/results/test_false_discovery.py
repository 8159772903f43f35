"""A run's comparisons counted (results/false_discovery.py): q-values against a hand
computation, and, on seeded synthetic runs of twenty paired comparisons, how often a run
with no real difference says any verdict at all, with the adjustment and without it, and
that one real difference among them is still found."""

import math
import random

import pytest

from httplab.results.false_discovery import FDR_LEVEL, discovered, excluded_by_chance, q_values
from httplab.results.paired_ratio import paired_ratio


def test_q_values_are_benjamini_hochberg_s():
    # sorted p: 0.01, 0.02, 0.03, 0.5 of 4: q = p * 4 / rank, made monotone from the top.
    assert q_values([0.03, 0.01, None, 0.5, 0.02]) == pytest.approx(
        [0.04, 0.04, None, 0.5, 0.04])
    assert q_values([None]) == [None]
    assert q_values([]) == []


def test_a_difference_is_said_only_below_the_level():
    assert discovered(0.049) and not discovered(FDR_LEVEL) and not discovered(None)
    assert excluded_by_chance(20) == pytest.approx(1.0)


def _run(rng: random.Random, ratios: list[float], rounds: int, noise: float) -> list:
    """One synthetic run: a paired comparison per true ratio, drift shared within a round."""
    comparisons = []
    for ratio in ratios:
        drift = [rng.gauss(0, 0.3) for _ in range(rounds)]
        base = {r: 1e4 * math.exp(d + rng.gauss(0, noise)) for r, d in enumerate(drift, 1)}
        other = {r: 1e4 * ratio * math.exp(d + rng.gauss(0, noise))
                 for r, d in enumerate(drift, 1)}
        comparisons.append(paired_ratio(base, other))
    return comparisons


def test_twenty_comparisons_of_no_difference_seldom_give_any_verdict():
    runs, adjusted, unadjusted = 1000, 0, 0
    for seed in range(runs):
        figures = _run(random.Random(seed), [1.0] * 20, 5, 0.1)
        p = [one.p_value for one in figures]
        adjusted += any(discovered(q) for q in q_values(p))
        unadjusted += any(value < 0.05 for value in p)
    assert adjusted / runs <= FDR_LEVEL + 0.015
    assert unadjusted / runs == pytest.approx(1 - 0.95 ** 20, abs=0.04)  # about 64 %


def test_one_real_difference_among_twenty_is_found():
    found = 0
    for seed in range(200):
        figures = _run(random.Random(seed), [1.2] + [1.0] * 19, 5, 0.02)
        found += discovered(q_values([one.p_value for one in figures])[0])
    assert found / 200 >= 0.95
