"""results/index.html, the list of runs: newest first, a row per run with its kind, settings,
servers, headline figures, warnings and host, linking to the run's page; a run whose
results.json cannot be read is listed with why."""

from dataclasses import replace
from urllib.parse import unquote

import pytest

from httplab.model import Cell, CellStatus
from httplab.presentation.html.run_list import ListedRun, date_text, render_run_list
from tests.latency_sample import latency_sample_result
from tests.sample_results import _run, sample_result, workloads_sample_result
from tests.support.page_tables import page_tables

COLUMNS = ["Date", "Kind", "Settings", "Servers", "Headline figures", "Warnings", "Host"]
BENCH = replace(sample_result(), settings=replace(sample_result().settings, connections=(500,)),
                cells=tuple(cell for cell in sample_result().cells if cell.connections == 500))


def rows_of(runs: list[ListedRun]):
    [table] = page_tables(render_run_list(runs))
    assert "sortable" in table.classes
    assert table.headers == COLUMNS
    return table.rows


def made_at(stamp: str, result=BENCH) -> ListedRun:
    """A readable run whose folder is named after when it was made."""
    return ListedRun(stamp, replace(result, created_utc=stamp))


def unreadable(folder: str) -> ListedRun:
    return ListedRun(folder, None, folder)  # its problem names it, for the test to find


def folder_of(row) -> str:
    """The folder a row links to, or for an unreadable run its problem (its folder here)."""
    return unquote(row.links[0].split("/")[0]) if row.links else row.cells[2]


@pytest.mark.parametrize("runs, order", [
    ([made_at("2026-11-22T04-48-08Z"), made_at("2026-11-24T15-07-00Z"),
      made_at("2026-11-23T02-07-27Z")],
     ["2026-11-24T15-07-00Z", "2026-11-23T02-07-27Z", "2026-11-22T04-48-08Z"]),
    ([unreadable("2026-11-25T00-00-00Z"), made_at("2026-11-24T15-07-00Z"),
      unreadable("2026-11-23T00-00-00Z")],
     ["2026-11-25T00-00-00Z", "2026-11-24T15-07-00Z", "2026-11-23T00-00-00Z"]),
    ([unreadable("my copy"), made_at("2026-11-22T04-48-08Z"), made_at("2026-11-24T15-07-00Z")],
     ["2026-11-24T15-07-00Z", "2026-11-22T04-48-08Z", "my copy"]),
    ([ListedRun("renamed", replace(BENCH, created_utc="2026-11-23T10-00-00Z")),
      made_at("2026-11-22T04-48-08Z"), made_at("2026-11-24T15-07-00Z")],
     ["2026-11-24T15-07-00Z", "renamed", "2026-11-22T04-48-08Z"]),
], ids=["by date", "an unreadable run by its folder's date", "no date comes last",
        "a renamed folder by when its run was made"])
def test_runs_are_listed_newest_first(runs, order):
    assert [folder_of(row) for row in rows_of(runs)] == order


@pytest.mark.parametrize("stamp, text", [
    ("2026-11-24T15-07-00Z", "2026-11-24 15:07 UTC"),
    ("2026-11-24T15:07:00Z", "2026-11-24 15:07 UTC"),
    ("my copy", "my copy"),
])
def test_dates_read_as_dates(stamp, text):
    assert date_text(stamp) == text


def test_an_unreadable_run_is_listed_with_its_problem_and_no_link():
    problem = "cannot read results.json: <Expecting value> line 1"
    [row] = rows_of([ListedRun("2026-11-25T00-00-00Z", None, problem)])
    assert "failed" in row.classes and row.links == []
    assert row.cells[1] == "unreadable" and row.cells[2] == problem
    assert row.cells[3:] == ["—"] * 4


@pytest.mark.parametrize("result, kind, settings, servers, headlines, warnings", [
    (BENCH, "bench", "10 and 5 threads, 500 connections; 10 s × 3 rounds; backend docker; "
     "server on CPUs 1; load on CPUs 0; fairness (h2load)", "Netty, Undertow (200 workers)",
     "Netty 75,561 req/s Undertow (200 workers) failed", "2"),
    (sample_result(), "sweep", "10 and 5 threads, 16 and 500 connections", None,
     "Netty 75,561 req/s Undertow (200 workers) failed", "2"),
    (replace(BENCH, settings=replace(BENCH.settings, profile=(False, True))), "bench, profiled",
     None, None, None, None),
    (replace(BENCH, settings=None, warnings=()), "rebuilt by report",
     "not recorded (rebuilt from raw output)", None, None, "0"),
    (workloads_sample_result(), "bench", "4 threads, 256 connections; 10 s × 2 rounds; backend "
     "docker; workloads plaintext, json, blocking 10 ms",
     "Netty, Undertow (200 workers), nginx (ceiling reference) (reference)",
     "plaintext: Netty 70,700 req/s Undertow (200 workers) 40,550 req/s nginx (ceiling "
     "reference) (reference) 120,700 req/s json: Netty 61,400 req/s Undertow (200 workers) "
     "35,350 req/s nginx (ceiling reference) (reference) 118,400 req/s blocking 10 ms: "
     "Undertow (200 workers) 17,800 req/s Netty 6,355 req/s", "1"),
    (latency_sample_result(), "latency", "rates 10000, 20000, 40000, p99 ≤ 10 ms; 10 s × 2 "
     "rounds; backend docker", "Netty, Undertow (200 workers), nginx (reference)",
     "Netty at least 20,000 req/s, limited by the load tool Undertow (200 workers) 10,000 "
     "req/s nginx (reference) 40,000 req/s", "0"),
], ids=["bench", "sweep", "profiled", "rebuilt", "workloads", "latency"])
def test_a_runs_row(result, kind, settings, servers, headlines, warnings):
    [row] = rows_of([ListedRun("run-folder", result)])
    assert row.links == ["run-folder/index.html"]
    assert row.cells[0] == f"{date_text(result.created_utc)} run-folder"
    assert row.cells[1] == kind
    for column, expected in ((2, settings), (3, servers), (4, headlines), (5, warnings)):
        if expected is not None:
            assert row.cells[column].startswith(expected), (COLUMNS[column], row.cells[column])
    assert row.cells[6] == result.host.describe()


def test_the_headline_is_the_best_thread_setting_at_the_largest_connection_count():
    cells = (Cell("netty", 10, 500, CellStatus.OK, (_run(50000.0, 10),)),
             Cell("netty", 5, 500, CellStatus.OK, (_run(60000.0, 5), _run(64000.0, 5))),
             Cell("netty", 10, 16, CellStatus.OK, (_run(90000.0, 10, connections=16),)),
             Cell("undertow", 10, 500, CellStatus.OK, (_run(70000.0, 10),)))
    [row] = rows_of([ListedRun("r", replace(BENCH, cells=cells))])
    # In the charts' order (points.server_order): Netty's 16-connection cell is the fastest.
    assert row.cells[4] == "Netty 62,000 req/s Undertow (200 workers) 70,000 req/s"


def test_a_folder_name_is_a_link_made_safe_and_text_is_escaped():
    result = replace(BENCH, host=replace(BENCH.host, hostname="<b>host</b>"))
    page = render_run_list([ListedRun("run #1?", result)])
    [row] = rows_of([ListedRun("run #1?", result)])
    assert row.links == ["run%20%231%3F/index.html"]
    assert "<b>host</b>" not in page and row.cells[6].startswith("<b>host</b>")


def test_no_runs_say_how_to_make_one():
    page = render_run_list([])
    assert page_tables(page) == [] and "make bench" in page
