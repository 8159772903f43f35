"""The summary a run's page opens with: per workload and framework its headline cell's
median, spread, bottleneck in words, share of the ceiling and status, marked failed or
warned; for a make latency run each server's maximum and its cost at the common rate."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import SustainedRate
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.html.summary import latency_summary_rows, summary_rows
from httplab.results.results_json.read import warnings_of_sentences

from tests.database_sample import database_sample_result
from tests.latency_sample import latency_sample_result
from tests.profile_sample import profile_sample_result
from tests.sample_results import sample_result, workloads_sample_result


def _with_old_warning():
    """The sample with a warning this lab no longer makes, naming a measured cell."""
    result = sample_result()
    return replace(result, warnings=warnings_of_sentences(
        result, ["Netty t5 c500: an older run's warning"]))


def _row(result, framework: str, workload: str = "plaintext"):
    rows = [row for row in summary_rows(result, frozenset())
            if (row.framework, row.workload) == (framework, workload)]
    assert len(rows) == 1, f"one row for {framework} on {workload}"
    return rows[0]


@pytest.mark.parametrize("result, framework, workload, expected", [
    pytest.param(workloads_sample_result, "Netty", "plaintext", dict(
        figure="70,700 req/s", spread="70,100–71,300, CV 1.2% over 2 runs",
        verdict="limited by the server's CPU", ceiling="59%", mark=None, status="ok",
        cell="4 threads, 256 connections"), id="ok"),
    pytest.param(sample_result, "Undertow (200 workers)", "plaintext", dict(
        figure=MISSING, spread=MISSING, verdict=MISSING, ceiling=MISSING, mark="failed",
        status="failed: verification failed: GET /: status 500 (server output: raw/undertow.log)"),
        id="failed"),
    pytest.param(workloads_sample_result, "Undertow (200 workers)", "blocking 10 ms", dict(
        spread="16,000–19,600, CV 14.3% over 2 runs", ceiling="not applicable", mark="warned",
        verdict="no CPU saturated (latency or the connections bound it)",
        status="warned: noisy cell (CV above threshold)"), id="warned-noisy"),
    pytest.param(database_sample_result, "Netty", "db", dict(
        verdict="limited by the CPUs wrk, the server and the database share", mark="warned",
        verdict_detail="server 0.70 of 2 cores, database 0.95 of 2, wrk 0.20 of 2, host busy "
                       "1.86 of 2", status="warned: cell limited by the shared CPUs"),
        id="warned-shared-cpus"),
    pytest.param(sample_result, "Netty", "plaintext", dict(
        mark="warned", status="warned: cell whose load generators started apart",
        verdict="unknown: CPU figures missing", spread="75,561–75,561, CV 0.0% over 3 runs"),
        id="warned-skewed"),
    pytest.param(_with_old_warning, "Netty", "plaintext", dict(
        mark="warned", status="warned: other warning"), id="warned-by-an-older-warning"),
    pytest.param(workloads_sample_result, "nginx (ceiling reference)", "json", dict(
        figure="118,400 req/s", ceiling="the ceiling", mark=None), id="reference"),
    pytest.param(workloads_sample_result, "Undertow (200 workers)", "json", dict(
        figure="35,350 req/s", ceiling="30%"), id="share-of-ceiling"),
])
def test_a_summary_row_says_the_headline_cell_in_words(result, framework, workload, expected):
    row = _row(result(), framework, workload)
    assert {name: getattr(row, name) for name in expected} == expected


def test_the_rows_go_by_workload_fastest_first_and_the_reference_last():
    rows = summary_rows(workloads_sample_result(), frozenset())
    assert [(row.workload, row.framework) for row in rows] == [
        ("plaintext", "Netty"), ("plaintext", "Undertow (200 workers)"),
        ("plaintext", "nginx (ceiling reference)"),
        ("json", "Netty"), ("json", "Undertow (200 workers)"),
        ("json", "nginx (ceiling reference)"),
        ("blocking 10 ms", "Undertow (200 workers)"), ("blocking 10 ms", "Netty")]


def test_the_headline_cell_is_the_best_thread_setting_at_the_most_connections():
    row = _row(sample_result(), "Netty")
    assert (row.cell, row.figure) == ("5 threads, 500 connections", "75,561 req/s")


def test_a_cell_of_one_run_has_no_spread():
    result = sample_result()
    one_run = replace(result.cells[1], runs=result.cells[1].runs[:1],
                      resources=result.cells[1].resources[:1])
    result = replace(result, cells=(result.cells[0], one_run, *result.cells[2:]))
    assert _row(result, "Netty").spread == "one run"


def test_a_profiled_cell_links_each_round_s_flame_graph_that_is_in_the_folder():
    result = profile_sample_result()
    files = frozenset({"raw/armeria+profiled-t5-c500-r1.flame.html",
                       "raw/armeria+profiled-t5-c500-r2.flame.html",
                       "raw/undertow+profiled-t5-c500-r1.flame.html"})
    rows = {row.framework: row for row in summary_rows(result, files)}
    armeria = rows["Armeria (16 workers) (profiled)"]
    assert [(link.text, link.path) for link in armeria.flame_graphs] == [
        ("flame graph, round 1", "raw/armeria+profiled-t5-c500-r1.flame.html"),
        ("flame graph, round 2", "raw/armeria+profiled-t5-c500-r2.flame.html")]
    assert [link.text for link in rows["Undertow (200 workers) (profiled)"].flame_graphs] == [
        "flame graph, round 1"], "its second run has no profile"
    assert rows["Netty (profiled)"].flame_graphs == (), "its flame graphs are not in the folder"
    assert rows["Netty"].flame_graphs == ()


def _without_any_rate_held(result):
    latency = result.latency
    nothing = SustainedRate("undertow", (None, None), broke_at=("1000/s: p99", "1000/s: p99"))
    return replace(result, latency=replace(latency, maxima=(
        latency.maxima[0], nothing, latency.maxima[2])))


@pytest.mark.parametrize("change, expected", [
    pytest.param(lambda result: result, [
        ("Netty", "at least 20,000 req/s, limited by the load tool", "20,000, 20,000",
         "30.0 µs", "warned"),
        ("Undertow (200 workers)", "10,000 req/s", "10,000, 20,000", "55.0 µs", None),
        ("nginx (reference)", "40,000 req/s", "40,000, 40,000", "11.0 µs", None)],
        id="highest-first-reference-last"),
    pytest.param(_without_any_rate_held, [
        ("Netty", "at least 20,000 req/s, limited by the load tool", "20,000, 20,000",
         "30.0 µs", "warned"),
        ("Undertow (200 workers)", "none held", "none held, none held", "55.0 µs", "failed"),
        ("nginx (reference)", "40,000 req/s", "40,000, 40,000", "11.0 µs", None)],
        id="none-held-is-failed"),
    pytest.param(lambda result: replace(result, latency=replace(
        result.latency, steps=tuple(step for step in result.latency.steps
                                    if step.purpose.value != "cost"))), [
        ("Netty", "at least 20,000 req/s, limited by the load tool", "20,000, 20,000",
         MISSING, "warned"),
        ("Undertow (200 workers)", "10,000 req/s", "10,000, 20,000", MISSING, None),
        ("nginx (reference)", "40,000 req/s", "40,000, 40,000", MISSING, None)],
        id="no-cost-steps"),
])
def test_a_latency_run_s_summary_is_each_server_s_maximum_and_cost(change, expected):
    rows = latency_summary_rows(change(latency_sample_result()))
    shown = [(row.framework, row.max_rate, row.rounds, row.cost, row.mark) for row in rows]
    assert shown == expected
    assert rows[0].broke_at == ("40000/s: the load tool could not hold the rate: 91.0% of it "
                                "answered, while the load tool used 0.97 of 1 cores, the host "
                                "1.89 of 4 (every round)")


def test_a_bench_has_no_latency_rows_and_a_latency_run_no_cell_rows():
    assert latency_summary_rows(sample_result()) == ()
    assert summary_rows(latency_sample_result(), frozenset()) == ()
