"""WORKLOAD and DELAY_MS: parsing, the paths requested, who answers what, and how names
carry a workload."""

from __future__ import annotations

import re

import pytest

from httplab.plan_error import PlanError
from httplab.model import PLAINTEXT, Workload
from httplab.run_layout import WORKLOAD_KEY_PATTERN, RunStem, StepStem
from httplab.running.latency_plan import make_latency_plan
from httplab.workloads import (MAX_DELAY_MS, answers, parse_workloads, request_path,
                               workload_of_key)
from tests.conftest import TESTS_DIR
from tests.support.plans import KNOWN

REPO = TESTS_DIR.parents[1]
BLOCKING, DELAY, JSON = Workload("blocking", 10), Workload("delay", 10), Workload("json")
DB, QUERIES = Workload("db"), Workload("queries", queries=20)


@pytest.mark.parametrize("text, delay, expected", [
    ("plaintext", "10", (PLAINTEXT,)),
    ("json, blocking,json", "10", (JSON, BLOCKING)),
    ("delay,plaintext", "25", (Workload("delay", 25), PLAINTEXT)),
    ("db,queries", "10", (DB, QUERIES)),
])
def test_workloads_parse_in_the_order_given_each_once(text, delay, expected):
    assert parse_workloads(text, delay) == expected


def test_queries_carries_the_rows_per_request():
    assert parse_workloads("queries,db", "10", "500") == (Workload("queries", queries=500), DB)
    assert (QUERIES.key, QUERIES.label, DB.key) == ("queries-20", "queries n=20", "db")
    assert QUERIES.uses_database and DB.uses_database and not JSON.uses_database


@pytest.mark.parametrize("queries", ["0", "501", "ten", "2.5", ""])
def test_bad_queries_stop_before_any_load(queries):
    with pytest.raises(PlanError, match="^QUERIES must be a whole number of rows per request "
                                        f"from 1 to 500 .*got '{queries}'$"):
        parse_workloads("queries", "10", queries)


@pytest.mark.parametrize("text, delay, message", [
    ("", "10", "WORKLOAD takes"), ("xml", "10", "WORKLOAD takes"),
    ("delay", "0", "DELAY_MS"), ("delay", f"{MAX_DELAY_MS + 1}", "DELAY_MS"),
    ("blocking", "1.5", "DELAY_MS"), ("plaintext", "ten", "DELAY_MS"),
])
def test_bad_workloads_stop_before_any_load(text, delay, message):
    with pytest.raises(PlanError, match=message):
        parse_workloads(text, delay)


@pytest.mark.parametrize("workload, path", [
    (PLAINTEXT, "/plaintext"), (JSON, "/json"), (DELAY, "/delay?ms=10"),
    (BLOCKING, "/blocking?ms=10"), (DB, "/db"), (QUERIES, "/queries?n=20")])
def test_each_workload_requests_its_path(workload, path):
    assert request_path(workload, "/plaintext") == path


@pytest.mark.parametrize("workload, reference_answers", [
    (PLAINTEXT, True), (JSON, True), (DELAY, False), (BLOCKING, False), (DB, False),
    (QUERIES, False)])
def test_the_reference_has_no_waiting_or_database_endpoint(workload, reference_answers):
    assert answers(workload, is_reference=True) is reference_answers
    assert answers(workload, is_reference=False)


@pytest.mark.parametrize("workload", [JSON, DELAY, BLOCKING, Workload("delay", 10000), DB,
                                      QUERIES, Workload("queries", queries=1)])
def test_names_carry_every_key_but_plaintexts_and_read_it_back(workload):
    assert re.fullmatch(WORKLOAD_KEY_PATTERN, workload.key)
    stem = RunStem.of_round("armeria@default", 5, 500, 2, 3, workload.key)
    assert stem.name == f"armeria@default-{workload.key}-t5-c500-r2"
    assert workload_of_key(RunStem.parse(stem.name).workload) == workload
    step = StepStem.parse(f"netty-{workload.key}-cost-q500")
    assert (step.server, workload_of_key(step.workload), step.cost) == ("netty", workload, True)


def test_plaintext_names_stay_as_before_workloads():
    assert RunStem.of_round("netty", 10, 500, 1, 1).name == "netty-t10-c500"
    assert workload_of_key(RunStem.parse("netty-t10-c500").workload) == PLAINTEXT
    assert workload_of_key("xml") is None


def test_the_java_servers_accept_the_same_delays():
    source = (REPO / "servers/common/src/main/java/httplab/server/WaitMillis.java").read_text()
    assert f"MAX = {MAX_DELAY_MS:_}" in source and "MIN = 1;" in source


@pytest.mark.parametrize("settings, message", [
    ({"workload": "json,blocking"}, "one workload per run"),
    ({"workload": "json", "url": "http://127.0.0.1:9000/"}, "WORKLOAD does not apply with URL"),
])
def test_make_latency_takes_one_workload_and_none_with_url(settings, message):
    with pytest.raises(PlanError, match=message):
        make_latency_plan({"ceiling": "0", **settings}, KNOWN, frozenset({0, 1}))


def test_make_latency_carries_its_workload_into_the_bench_plan():
    plan = make_latency_plan({"ceiling": "0", "workload": "delay", "delay-ms": "20"}, KNOWN,
                             frozenset({0, 1}))
    assert plan.bench.workloads == (Workload("delay", 20),)
