"""make calibrate's statistics (results/calibration.py): the paired SD of an A/A's log ratios,
the half-widths and rounds it leads to, checked against the formula with Student's t by
hand; whether the A/A interval holds 1; and a host's newest calibration."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from httplab.model import HostInfo, RunKind
from httplab.results.calibration import (NoiseMetric, newest_calibration, replica_pairs,
                                         same_host)

from tests.calibration_sample import HOST, calibration_result

# Student's t, two-sided 95 % (the 0.975 quantile), by degrees of freedom.
T_975 = {2: 4.302653, 3: 3.182446, 4: 2.776445, 5: 2.570582, 6: 2.446912, 7: 2.364624,
         8: 2.306004, 9: 2.262157, 10: 2.228139, 11: 2.200985, 12: 2.178813}
SDS = {NoiseMetric.REQUESTS_PER_SEC: 0.04, NoiseMetric.CPU_PER_REQUEST: 0.02,
       NoiseMetric.P99: 0.10}


def _half_width(sd: float, rounds: int) -> float:
    return math.exp(T_975[rounds - 1] * sd / math.sqrt(rounds)) - 1


def _noise(result):
    (pair,) = replica_pairs(result)
    return {noise.metric: noise for noise in pair.noise}


def test_a_calibration_is_its_own_kind_and_pairs_the_replica_with_the_first():
    result = calibration_result()
    assert result.kind is RunKind.CALIBRATE
    (pair,) = replica_pairs(result)
    assert (pair.base, pair.other, pair.threads, pair.connections) == (
        "netty", "netty+replica2", 10, 500)
    assert replica_pairs(replace(result, settings=replace(result.settings, replicas=()))) == ()


@pytest.mark.parametrize("rounds", [3, 5, 8])
def test_the_paired_sd_is_the_spread_of_the_log_ratios(rounds):
    noise = _noise(calibration_result(rounds))
    for metric, sd in SDS.items():
        assert noise[metric].log_sd == pytest.approx(sd, rel=1e-9)
        assert noise[metric].figures.rounds == rounds


def test_the_expected_half_widths_follow_the_t_formula():
    noise = _noise(calibration_result())
    for metric, sd in SDS.items():
        for rounds in (3, 5, 10):
            assert noise[metric].half_width_at(rounds) == pytest.approx(
                _half_width(sd, rounds), rel=1e-5)
    # by hand: 4.3027 x 0.04 / sqrt(3) = 0.0994, so +-10.4 % after 3 rounds
    assert noise[NoiseMetric.REQUESTS_PER_SEC].half_width_at(3) == pytest.approx(0.1045, abs=1e-4)


def test_the_rounds_needed_are_the_fewest_whose_half_width_is_within_the_precision():
    noise = _noise(calibration_result())
    most = max(T_975) + 1
    for metric, sd in SDS.items():
        for precision in (0.05, 0.10):
            by_hand = next((rounds for rounds in range(3, most + 1)
                            if _half_width(sd, rounds) <= precision), None)
            needed = noise[metric].rounds_for(precision)
            assert needed == by_hand if by_hand is not None else needed > most
    assert noise[NoiseMetric.REQUESTS_PER_SEC].rounds_for(0.05) == 6
    assert noise[NoiseMetric.REQUESTS_PER_SEC].rounds_for(0.10) == 4


def test_an_aa_without_drift_holds_1_and_one_shifted_within_the_round_does_not():
    assert all(noise.holds_one for noise in _noise(calibration_result()).values())
    drifted = _noise(calibration_result(rate_sd=0.005, shift=math.log(1.05)))
    assert drifted[NoiseMetric.REQUESTS_PER_SEC].holds_one is False
    assert drifted[NoiseMetric.CPU_PER_REQUEST].holds_one is True
    (pair,) = replica_pairs(calibration_result(rate_sd=0.005, shift=math.log(1.05)))
    assert [noise.metric for noise in pair.drifting] == [NoiseMetric.REQUESTS_PER_SEC]


def test_two_rounds_give_a_spread_but_no_interval():
    noise = _noise(calibration_result(rounds=2))[NoiseMetric.REQUESTS_PER_SEC]
    assert noise.log_sd == pytest.approx(0.04) and noise.holds_one is None


def test_the_newest_calibration_of_the_same_host_with_each_figures_sd():
    other_host = replace(HOST, hostname="lab-b")
    newest = calibration_result(rate_sd=0.03, created="2026-11-28T23-00-00Z")
    runs = [calibration_result(rate_sd=0.06, created="2026-11-29T01-00-00Z", host=other_host),
            replace(newest, settings=replace(newest.settings, replicas=())),  # a bench
            newest, calibration_result(rate_sd=0.01, created="2026-11-27T00-00-00Z")]
    found = newest_calibration(runs, replace(HOST, kernel="6.1.0-99"))
    assert found.created_utc == "2026-11-28T23-00-00Z" and found.rounds == 5
    assert found.of(NoiseMetric.REQUESTS_PER_SEC) == pytest.approx(0.03)
    assert found.of(NoiseMetric.P99) == pytest.approx(0.10)
    assert newest_calibration(runs[:2], HOST) is None


def test_a_host_is_the_same_by_name_cpu_cores_and_memory_and_an_unknown_one_never():
    assert same_host(HOST, replace(HOST, kernel="other", java="21"))
    assert not same_host(HOST, replace(HOST, cores=4))
    assert not same_host(HostInfo(), HostInfo())
