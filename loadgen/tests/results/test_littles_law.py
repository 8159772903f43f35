"""Little's law on the page: the bound waiting sets on delay and blocking, from the
connections and the blocking pool, and a cell's share of it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import PLAINTEXT, Cell, CellStatus, ResourceUsage, Workload
from httplab.results.littles_law import (CONNECTIONS, POOL, WaitBound, cell_wait_bound,
                                         pool_threads_max, rate_bound, share_of_bound,
                                         wait_bound)

from tests.sample_results import _run, workloads_sample_result

DELAY_10, BLOCKING_10 = Workload("delay", 10), Workload("blocking", 10)


@pytest.mark.parametrize("in_flight, delay_ms, expected", [
    (500, 10, 50_000.0),  # the example: 500 connections, a 10 ms call
    (200, 10, 20_000.0),  # Undertow's 200 workers cannot pass 20,000 req/s
    (256, 1, 256_000.0),
    (1, 10_000, 0.1),
    (3, 7, 3000 / 7),
])
def test_rate_bound_is_in_flight_over_the_delay(in_flight, delay_ms, expected):
    assert rate_bound(in_flight, delay_ms) == pytest.approx(expected)


@pytest.mark.parametrize("workload, connections, pool, expected", [
    (PLAINTEXT, 500, 200, None),
    (Workload("json"), 500, 200, None),
    (DELAY_10, 500, 200, WaitBound(10, 500, None)),  # delay holds no thread: no pool bound
    (BLOCKING_10, 500, 200, WaitBound(10, 500, 200)),
    (BLOCKING_10, 500, None, WaitBound(10, 500, None)),  # no pool reported
], ids=["plaintext", "json", "delay", "blocking", "blocking without a pool"])
def test_wait_bound_only_for_the_workloads_that_wait(workload, connections, pool, expected):
    assert wait_bound(workload, connections, pool) == expected


@pytest.mark.parametrize("bound, rate, pool_rate, set_by", [
    (WaitBound(10, 500), 50_000.0, None, CONNECTIONS),
    (WaitBound(10, 500, 200), 20_000.0, 20_000.0, POOL),
    (WaitBound(10, 100, 200), 10_000.0, 20_000.0, CONNECTIONS),
    (WaitBound(10, 200, 200), 20_000.0, 20_000.0, CONNECTIONS),  # a tie: the connections
    (WaitBound(5, 256, 64), 12_800.0, 12_800.0, POOL),
], ids=["connections alone", "pool smaller", "connections smaller", "tie", "5 ms"])
def test_the_bound_is_the_smaller_and_says_what_set_it(bound, rate, pool_rate, set_by):
    assert bound.rate == pytest.approx(rate)
    assert bound.pool_rate == (None if pool_rate is None else pytest.approx(pool_rate))
    assert bound.set_by == set_by


def test_a_cells_bound_takes_its_servers_configured_pool():
    result = workloads_sample_result()
    netty_blocking, undertow_blocking = result.cells[6], result.cells[7]
    assert cell_wait_bound(netty_blocking, result) == WaitBound(10, 256, 64)
    assert cell_wait_bound(undertow_blocking, result) == WaitBound(10, 256, 200)
    assert cell_wait_bound(result.cells[0], result) is None  # plaintext


@pytest.mark.parametrize("index, share", [(6, 6355 / 6400), (7, 17800 / 20000), (0, None),
                                          (3, None)],
                         ids=["netty blocking", "undertow blocking", "plaintext", "json"])
def test_share_of_bound_is_the_median_over_the_bound(index, share):
    result = workloads_sample_result()
    got = share_of_bound(result.cells[index], result)
    assert got == (None if share is None else pytest.approx(share))


def test_a_failed_or_unmeasured_cell_has_no_share_but_a_bound():
    result = workloads_sample_result()
    failed = replace(result.cells[7], status=CellStatus.FAILED, reason="crashed")
    unmeasured = Cell("undertow", 4, 256, CellStatus.FAILED, workload=BLOCKING_10)
    for cell in (failed, unmeasured):
        assert share_of_bound(cell, result) is None
        assert cell_wait_bound(cell, result).rate == 20_000.0


@pytest.mark.parametrize("seen, expected", [
    ((), None), ((None, None), None), ((12, None, 40), 40), ((200,), 200)])
def test_pool_threads_max_is_the_most_seen_in_any_run(seen, expected):
    cell = Cell("netty", 4, 256, CellStatus.OK, (_run(100.0, 4),) * len(seen),
                resources=tuple(ResourceUsage(pool_threads_max=count) for count in seen),
                workload=BLOCKING_10)
    assert pool_threads_max(cell) == expected
