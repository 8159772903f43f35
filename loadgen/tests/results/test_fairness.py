from __future__ import annotations

import math

import pytest

from httplab.model import Cell, CellStatus, FairnessRun
from httplab.results.fairness import (Fairness, cell_fairness, fairness_of_counts,
                                      fairness_of_run, fairness_run_for_chart, normalised_rates)

# Ten connections' counts, one of which completed nothing.
WITH_A_ZERO = (0, 10, 10, 10, 10, 10, 10, 10, 10, 20)  # mean 10, pstdev sqrt(20)


@pytest.mark.parametrize("counts, expected", [
    pytest.param(WITH_A_ZERO, Fairness(math.inf, math.sqrt(20) / 10, 0.0, 10), id="a zero"),
    pytest.param((5,) * 10, Fairness(1.0, 0.0, 0.10, 10), id="ten equal"),
    pytest.param((7,) * 20, Fairness(1.0, 0.0, 0.10, 20), id="twenty equal"),
    # the slowest tenth of 16 is 1.6 connections: the second counts for 0.6 of its requests
    pytest.param((3,) * 16, Fairness(1.0, 0.0, 0.10, 16), id="sixteen equal"),
    pytest.param((1, 2) + (3,) * 14, Fairness(3.0, None, (1 + 0.6 * 2) / 45, 16),
                 id="sixteen, the edge in part"),
    pytest.param((1, 3), Fairness(3.0, 0.5, 0.2 * 1 / 4, 2), id="two"),
    pytest.param((30, 10, 20), Fairness(3.0, math.sqrt(200 / 3) / 20, 0.3 * 10 / 60, 3),
                 id="unsorted"),
])
def test_fairness_of_counts(counts, expected):
    figures = fairness_of_counts(counts)
    assert figures.spread == expected.spread and figures.connections == expected.connections
    assert figures.slowest_share == pytest.approx(expected.slowest_share)
    if expected.cv is not None:
        assert figures.cv == pytest.approx(expected.cv)


@pytest.mark.parametrize("counts", [(), (0, 0, 0)])
def test_no_figures_without_requests(counts):
    assert fairness_of_counts(counts) is None


def run(connection_bytes=(), low=None, high=None, mean=None, sd=None, connections=4):
    return FairnessRun(connections=connections, duration_s=3.0, requests_per_sec=100.0,
                       succeeded=300, failed=0, client_rps_min=low, client_rps_max=high,
                       client_rps_mean=mean, client_rps_sd=sd, connection_bytes=connection_bytes)


def test_a_run_with_socket_readings_uses_them_not_the_summary():
    figures = fairness_of_run(run((76, 152), low=1.0, high=100.0, mean=50.0, sd=1.0))
    assert figures == Fairness(2.0, pytest.approx(1 / 3), pytest.approx(0.2 * 76 / 228), 2)


@pytest.mark.parametrize("summary, expected", [
    pytest.param((20.0, 30.0, 25.0, 5.0), Fairness(1.5, 0.2, None, 4), id="h2load's summary"),
    pytest.param((0.0, 30.0, 10.0, 5.0), Fairness(math.inf, 0.5, None, 4), id="a client at 0"),
    pytest.param((20.0, 30.0, 25.0, None), Fairness(1.5, None, None, 4), id="no sd"),
    pytest.param((20.0, 30.0, 0.0, 5.0), Fairness(1.5, None, None, 4), id="mean 0"),
])
def test_without_socket_readings_falls_back_to_h2loads_summary(summary, expected):
    assert fairness_of_run(run((), *summary)) == expected


@pytest.mark.parametrize("summary", [(None, None, None, None), (0.0, 0.0, 0.0, 0.0),
                                     (None, 30.0, 25.0, 5.0)])
def test_no_figures_from_an_empty_summary(summary):
    assert fairness_of_run(run((), *summary)) is None


def test_normalised_rates_over_the_mean_slowest_first():
    assert normalised_rates(run((30, 10, 20))) == (0.5, 1.0, 1.5)
    assert normalised_rates(run(())) == normalised_rates(run((0, 0))) == ()


def cell(*runs: FairnessRun) -> Cell:
    return Cell("netty", 2, 4, CellStatus.OK, fairness=runs)


SPREAD_2 = run((10, 20))
SPREAD_3 = run((10, 30))
SPREAD_INF = run((0, 30))


def test_cell_fairness_takes_each_figures_median():
    figures = cell_fairness(cell(SPREAD_2, SPREAD_INF, SPREAD_3))
    assert figures.spread == 3.0 and figures.connections == 2
    assert figures.slowest_share == pytest.approx(0.2 / 4)  # 0.2 of 1/3, of 1/4 and of 0


def test_cell_fairness_without_figures():
    assert cell_fairness(cell()) is None
    assert cell_fairness(cell(run(()))) is None


def test_the_chart_draws_the_run_of_median_spread():
    assert fairness_run_for_chart(cell(SPREAD_INF, SPREAD_2, SPREAD_3)) is SPREAD_3
    assert fairness_run_for_chart(cell(SPREAD_3, SPREAD_2)) is SPREAD_2
    assert fairness_run_for_chart(cell(run((), 20.0, 30.0, 25.0, 5.0))) is None
