"""make pairing-study's statistics on synthetic log ratios of known σ_w and σ_b (seeded),
and on figures small enough to check by hand."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from httplab.studies.pairing_stats import (Cost, RandomEffects, Verdict,
                                           alternating_cost, alternating_half_width,
                                           log_ratios, random_effects, sigma_b_upper,
                                           verdict, whole_round_cost, whole_round_sd)


def synthetic(starts: int, pairs: int, sigma_w: float, sigma_b: float,
              seed: int) -> list[list[float]]:
    """Log ratios x_sp = b_s + w_sp, b ~ N(0, σ_b), w ~ N(0, σ_w)."""
    rng = random.Random(seed)
    groups = []
    for _ in range(starts):
        luck = rng.gauss(0, sigma_b)
        groups.append([luck + rng.gauss(0, sigma_w) for _ in range(pairs)])
    return groups


def test_a_hand_computed_split():
    # Means 0.1 and 0.3, grand 0.2; each value 0.1 from its start's mean.
    groups = [[0.0, 0.2], [0.2, 0.4]]
    effects = random_effects(groups)
    assert effects.msw == pytest.approx((0.01 + 0.01 + 0.01 + 0.01) / 2)  # 0.02
    assert effects.msb == pytest.approx(2 * (0.01 + 0.01) / 1)  # 0.04
    assert effects.sigma_w == pytest.approx(math.sqrt(0.02))
    assert effects.sigma_b == pytest.approx(math.sqrt((0.04 - 0.02) / 2))


def test_sigma_b_is_zero_when_the_starts_agree_more_than_the_pairs():
    groups = [[-0.1, 0.1], [-0.1, 0.1], [-0.1, 0.1]]  # every start's mean the same
    effects = random_effects(groups)
    assert effects.msb == 0 and effects.sigma_b == 0
    assert effects.sigma_b_upper == 0  # (S − 1) · 0 / χ² − MSW < 0


@pytest.mark.parametrize("sigma_w, sigma_b", [(0.05, 0.0), (0.05, 0.02), (0.02, 0.08),
                                              (0.10, 0.10)])
def test_many_starts_recover_the_known_spreads(sigma_w, sigma_b):
    effects = random_effects(synthetic(600, 6, sigma_w, sigma_b, seed=44))
    assert effects.sigma_w == pytest.approx(sigma_w, rel=0.05)
    assert effects.sigma_b == pytest.approx(sigma_b, abs=0.006)
    assert effects.sigma_b_upper >= effects.sigma_b


@pytest.mark.parametrize("sigma_w, sigma_b", [(0.05, 0.03), (0.03, 0.06)])
def test_the_upper_bound_holds_sigma_b_about_95_in_100_times(sigma_w, sigma_b):
    held = sum(random_effects(synthetic(4, 6, sigma_w, sigma_b, seed)).sigma_b_upper >= sigma_b
               for seed in range(400))
    assert 0.90 * 400 <= held <= 0.99 * 400


def test_the_upper_bound_against_scipy_by_hand():
    # S = 4: χ²₀.₀₅(3) = 0.351846; (3 · 0.05 / 0.351846 − 0.01) / 5
    expected = math.sqrt((3 * 0.05 / 0.3518463 - 0.01) / 5)
    assert sigma_b_upper(0.05, 0.01, 4, 5) == pytest.approx(expected, rel=1e-5)


def test_the_whole_round_sd_is_the_sd_of_the_log_ratios():
    logs = log_ratios([100.0, 200.0, 50.0], [110.0, 180.0, 50.0])
    assert logs[2] == 0 and logs[0] == pytest.approx(math.log(1.1))
    assert whole_round_sd(logs) == pytest.approx(statistics.stdev(logs))


@pytest.mark.parametrize("base, other", [([1.0], [1.0, 2.0]), ([0.0], [1.0]), ([1.0], [-1.0])])
def test_log_ratios_refuse_unpaired_or_non_positive_figures(base, other):
    with pytest.raises(ValueError):
        log_ratios(base, other)


@pytest.mark.parametrize("groups", [[[0.1, 0.2]], [[0.1], [0.2]], [[0.1, 0.2], [0.1]]])
def test_the_split_refuses_too_few_or_uneven_groups(groups):
    with pytest.raises(ValueError):
        random_effects(groups)


def test_the_half_width_falls_with_starts_and_with_pairs_until_sigma_b_dominates():
    assert alternating_half_width(0.05, 0.0, 4, 6) < alternating_half_width(0.05, 0.0, 4, 3)
    assert alternating_half_width(0.05, 0.0, 8, 6) < alternating_half_width(0.05, 0.0, 4, 6)
    many = alternating_half_width(0.05, 0.05, 4, 60)
    floor = math.exp(3.182446 * 0.05 / 2) - 1  # σ_w²/P → 0: t(3) · σ_b / √4
    assert many == pytest.approx(floor, rel=0.02)


def test_whole_rounds_cost_their_rounds_times_a_rounds_seconds():
    cost = whole_round_cost(0.05, 90.0, 0.05)
    # t(0.975, n − 1) · 0.05 / √n against log 1.05 = 0.0488: n = 6 gives 2.571 · 0.05 / 2.449
    # = 0.0525, over; n = 7 gives 2.447 · 0.05 / 2.646 = 0.0462: 7 rounds.
    assert cost == Cost(7, 1, 630.0)
    assert whole_round_cost(5.0, 90.0, 0.05) is None  # out of reach within 1000 rounds


def test_alternating_takes_the_cheapest_pairs_per_start():
    # No luck between starts and a costly start: the fewest starts, with as many pairs as
    # they need: t(2) · 0.05 / √(3 · 6) = 0.0507 misses log 1.05, √(3 · 7) = 0.0470 does not.
    assert alternating_cost(0.05, 0.0, 60.0, 1.0, 0.05) == Cost(3, 7, 3 * (60.0 + 7))
    # Much luck between starts: more pairs barely help, more starts do.
    lucky = alternating_cost(0.01, 0.05, 10.0, 20.0, 0.05)
    assert lucky.pairs <= 2 and lucky.starts > 5
    assert lucky.seconds == lucky.starts * (10.0 + lucky.pairs * 20.0)
    assert alternating_half_width(0.01, 0.05, lucky.starts, lucky.pairs) <= 0.05
    assert alternating_half_width(0.01, 0.05, lucky.starts - 1, lucky.pairs) > 0.05


def _effects(sigma_w: float, sigma_b: float, upper: float) -> RandomEffects:
    return RandomEffects(4, 6, 0.0, 0.0, sigma_w, sigma_b, upper)


@pytest.mark.parametrize("whole_sd, round_s, sigma_w, sigma_b, upper, cheaper", [
    # Pairs much tighter than rounds, little luck even at its bound: alternating wins.
    (0.10, 60.0, 0.02, 0.0, 0.01, True),
    # Cheaper at the estimate, but not at σ_b's upper bound: not called cheaper.
    (0.05, 60.0, 0.02, 0.0, 0.20, False),
    # Pairs as spread as rounds and luck besides: whole rounds win.
    (0.02, 30.0, 0.05, 0.05, 0.08, False),
])
def test_the_verdict_asks_alternating_to_win_at_sigma_bs_upper_bound_too(
        whole_sd, round_s, sigma_w, sigma_b, upper, cheaper):
    result = verdict(whole_sd, round_s, _effects(sigma_w, sigma_b, upper), 40.0, 20.0, 0.05)
    assert result.alternating_cheaper is cheaper
    assert (result.alternating.seconds < result.whole.seconds) is (cheaper or upper == 0.20)


def test_a_design_out_of_reach_is_never_the_cheaper():
    reachable = Cost(3, 6, 600.0)
    assert not Verdict(0.05, reachable, None, None).alternating_cheaper
    assert not Verdict(0.05, reachable, reachable, None).alternating_cheaper
    assert Verdict(0.05, None, reachable, reachable).alternating_cheaper
