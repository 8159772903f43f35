"""What limited a cell, by the executor's source of its bound: the connections (a thread
per request), the pool's threads, or the database pool; a saturated CPU before any bound."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.results.executor_limit import (NEAR_BOUND, cell_limit, database_pool_sentence,
                                            wait_bound_sentence)
from httplab.results.littles_law import WaitBound

from tests.sample_results import workloads_sample_result


@pytest.mark.parametrize("bound, share, sentence", [
    (WaitBound(10, 500, None), 0.95,  # virtual threads: only the connections bound it
     "bounded by the connections, one request in flight each: 500 ÷ 10 ms = 50,000/s "
     "(95% reached)"),
    (WaitBound(10, 500, 200), 0.97,  # a 200-thread pool below 500 connections
     "bounded by the pool: 200 threads ÷ 10 ms = 20,000/s (97% reached)"),
    (WaitBound(10, 500, 16), NEAR_BOUND,
     "bounded by the pool: 16 threads ÷ 10 ms = 1,600/s (85% reached)"),
    (WaitBound(10, 500, None), 0.40,
     "no CPU saturated and 40% of its bound (the connections, one request in flight each: "
     "500 ÷ 10 ms = 50,000/s): the waits and their scheduling held it"),
], ids=["connections", "pool", "at the threshold", "below"])
def test_a_waiting_cell_names_the_source_of_its_bound(bound, share, sentence):
    assert wait_bound_sentence(bound, share) == sentence


def test_on_virtual_threads_a_bound_below_the_connections_is_the_frameworks_cap():
    # Reactor's bounded elastic on virtual threads still runs 10 tasks per CPU at once.
    assert wait_bound_sentence(WaitBound(10, 500, 20), 0.92, virtual=True) == (
        "bounded by the cap on virtual threads at once: 20 ÷ 10 ms = 2,000/s (92% reached)")


@pytest.mark.parametrize("pool, rate, sentence", [
    (10, 4000.0, "no CPU saturated: the database pool, 10 connections, allows 10 queries at "
                 "once, 2.50 ms each at most at this rate"),
    (10, 11_111.0, "no CPU saturated: the database pool, 10 connections, allows 10 queries "
                   "at once, 0.90 ms each at most at this rate"),
    (16, 0.0, "no CPU saturated: the database pool, 16 connections, allows 16 queries at "
              "once, inf ms each at most at this rate"),
], ids=["2.5 ms", "0.9 ms", "nothing completed"])
def test_a_database_cell_names_its_connection_pool_by_littles_law(pool, rate, sentence):
    assert database_pool_sentence(pool, rate) == sentence


def test_a_cell_of_a_server_on_virtual_threads_is_bounded_by_its_connections_not_a_pool():
    result = workloads_sample_result()
    blocking = result.cells[6]  # Netty, blocking 10 ms, 256 connections, a 64-thread pool
    pooled = cell_limit(blocking, result)
    virtual = replace(result, servers=tuple(
        replace(server, blocking_pool=None, executor="virtual") if server.name ==
        blocking.server else server for server in result.servers))
    on_virtual = cell_limit(blocking, virtual)
    assert pooled.sentence == "bounded by the pool: 64 threads ÷ 10 ms = 6,400/s (99% reached)"
    assert on_virtual.sentence == (
        "no CPU saturated and 25% of its bound (the connections, one request in flight each: "
        "256 ÷ 10 ms = 25,600/s): the waits and their scheduling held it")


def test_a_plaintext_cell_has_no_bound_and_says_its_cpu_verdict():
    result = workloads_sample_result()
    limit = cell_limit(result.cells[0], result)
    assert limit.share_of_bound is None and limit.sentence
