"""What a user reads of a run of the database workloads (db, queries): results.md's sections
with the database beside each server, the verdict in words and each framework's driver and
pool once, the database's columns under "Where the CPU went", the run line naming the
database, the CSV's and JSON's database figures, nginx not applicable, and the charts named
by workload. A run without a database renders as before: the other golden files."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import pytest

from httplab.model import DatabaseRecord, DatabaseUsage
from httplab.presentation.exporters import all_exporters
from httplab.presentation.csv.results import DATABASE_COLUMNS
from httplab.presentation.wording.settings import describe_database
from httplab.presentation.wording.settings import describe_settings
from httplab.presentation.publish import write_charts
from httplab.results.database_figures import database_figures

from tests.database_sample import DB, QUERIES_20, database_sample_result
from tests.latency_sample import latency_sample_result
from tests.sample_results import workloads_sample_result
from tests.support.update_golden import GOLDEN

CASE = GOLDEN / "database"


def render(name: str, result) -> str:
    return next(e for e in all_exporters() if e.file_name == name).render(result)


@pytest.mark.parametrize("exporter", all_exporters(), ids=lambda e: e.file_name)
def test_a_run_of_the_database_workloads_matches_its_golden_file(exporter):
    golden = CASE / exporter.file_name
    assert golden.is_file(), f"no golden file {golden}: run `make golden` and review the diff"
    assert exporter.render(database_sample_result()) == golden.read_text(), (
        f"{exporter.file_name} differs from {golden}; if intended, run `make golden`")


# --- results.md ------------------------------------------------------------------------


def _section(markdown: str, heading: str) -> str:
    return markdown.split(heading, 1)[1].split("\n### ", 1)[0]


def test_each_database_workload_has_its_section_with_nginx_not_applicable():
    markdown = render("results.md", database_sample_result())
    assert [line for line in markdown.splitlines() if line.startswith("###")] == [
        "### Workload: db — GET /db", "### Workload: queries n=20 — GET /queries?n=20"]
    assert "not applicable: nginx has no /db endpoint |" in markdown
    assert "not applicable: nginx has no /queries endpoint |" in markdown


def test_the_database_table_puts_its_cpu_beside_the_servers_with_the_verdict_in_words():
    section = _section(render("results.md", database_sample_result()), "GET /db")
    assert ("| Framework | Threads | Connections | Requests/sec | Server CPU (cores) | "
            "Database CPU (cores) | Database memory peak | Database context switches per "
            "request | Limited by |") in section
    assert ("| Undertow (200 workers) | 4 | 256 | 9200.00 | 0.10 | 1.84 | 180.00MB | 2.50 | "
            "limited by the database's CPU |") in section
    assert "limited by the CPUs wrk, the server and the database share |" in section


def test_each_frameworks_driver_and_pool_show_once_per_section():
    section = _section(render("results.md", database_sample_result()), "GET /queries?n=20")
    assert section.count("r2dbc-postgresql 1.0.7, r2dbc-pool 1.0.2") == 1
    assert "| Undertow (200 workers) | Spring JDBC, HikariCP 6.3.3, PostgreSQL JDBC 42.7.8 | 10 |" \
        in section
    pools = section.split("as the server configured it:", 1)[1].split("Where the CPU went")[0]
    assert "nginx" not in pools  # not applicable, said in the cells table


def test_where_the_cpu_went_gains_the_databases_columns_before_the_verdict():
    section = _section(render("results.md", database_sample_result()), "GET /db")
    cpu = section.split("Where the CPU went", 1)[1]
    assert ("| Host busy (cores) | Database CPU (cores) | Database CPU per request | "
            "Limited by | Figures behind it |") in cpu
    assert ("| 1.99 | 1.84 | 200.02us | database | server 0.10 of 2 cores, database 1.84 of 2, "
            "wrk 0.04 of 2, host busy 1.99 of 2 |") in cpu


def test_a_run_without_database_figures_has_no_database_columns():
    markdown = render("results.md", workloads_sample_result())
    assert "Database" not in markdown and "database" not in markdown


def test_a_database_cell_not_sampled_shows_dashes_not_zeros():
    result = database_sample_result()
    cell = result.cells[0]
    unsampled = replace(cell, resources=tuple(replace(u, database=None) for u in cell.resources))
    result = replace(result, cells=(unsampled,) + result.cells[1:])
    assert database_figures(unsampled) is None
    assert "| Netty | 4 | 256 | 15350.00 | 0.70 | — | — | — | " in render("results.md", result)


def test_the_warnings_say_the_database_not_the_framework_set_the_figure():
    markdown = render("results.md", database_sample_result())
    assert ("- 2 cells limited by the database's CPU: Undertow (200 workers) db t4 c256, "
            "Undertow (200 workers) queries n=20 t4 c256. The database used at least 90% of "
            "the CPUs it may use") in markdown
    assert "the database, not the framework, set the figure" in markdown


@pytest.mark.parametrize("record, text", [
    (DatabaseRecord("docker", version="PostgreSQL 15.14 (Debian 15.14-1.pgdg120+1) on "
                    "x86_64-pc-linux-gnu, compiled by gcc", max_connections=100,
                    shared_buffers="128MB", image="postgres:15.14-bookworm",
                    log_file="raw/<server>.database.log"),
     "database PostgreSQL 15.14 (Debian 15.14-1.pgdg120+1) (max_connections 100, "
     "shared_buffers 128MB), docker image postgres:15.14-bookworm, started afresh for each "
     "server, each one's log raw/<server>.database.log"),
    (DatabaseRecord("local", version="PostgreSQL 15.14", binaries="/usr/lib/postgresql/15/bin"),
     "database PostgreSQL 15.14, local binaries /usr/lib/postgresql/15/bin, started afresh "
     "for each server"),
    (DatabaseRecord("docker"), "database PostgreSQL, version unknown, docker image unknown, "
                               "started afresh for each server"),
])
def test_the_run_line_names_the_database(record, text):
    assert describe_database(record) == text
    settings = replace(database_sample_result().settings, database=record)
    assert describe_settings(settings).endswith(f"; {text}")


def test_the_run_line_names_no_database_without_one():
    assert "database" not in describe_settings(workloads_sample_result().settings)


# --- results.csv and results.json --------------------------------------------------------


def test_csv_rows_end_with_the_databases_figures_and_the_servers_pool():
    rows = list(csv.DictReader(io.StringIO(render("results.csv", database_sample_result()))))
    assert list(rows[0])[-len(DATABASE_COLUMNS):] == list(DATABASE_COLUMNS)
    undertow_db = rows[1]
    assert (undertow_db["workload"], undertow_db["limited_by"]) == ("db", "database")
    assert {key: undertow_db[key] for key in ("queries", "database_cores",
                                              "database_memory_peak_bytes",
                                              "database_context_switches", "db_pool")} == {
        "queries": "", "database_cores": "1.840", "database_memory_peak_bytes": "188743680",
        "database_context_switches": "230000", "db_pool": "10"}
    assert (rows[3]["workload"], rows[3]["queries"]) == ("queries-20", "20")


def test_a_csv_without_a_database_workload_has_no_database_columns():
    header = render("results.csv", workloads_sample_result()).splitlines()[0]
    assert "database" not in header and "db_pool" not in header


def test_json_adds_the_database_summary_to_database_cells_and_round_trips():
    document = json.loads(render("results.json", database_sample_result()))
    summary = document["cells"][1]["database_summary"]
    assert summary["database_cores"] == 1.84
    assert summary["database_memory_peak_bytes"] == 180 * 2**20
    assert document["servers"][1]["db_pool"] == 10
    assert document["settings"]["database"]["shared_buffers"] == "128MB"
    assert document["cells"][1]["limited_by"]["limit"] == "database"
    others = json.loads(render("results.json", workloads_sample_result()))["cells"]
    assert all("database_summary" not in cell for cell in others)


def test_a_database_cells_summary_is_null_when_the_database_was_not_sampled():
    result = database_sample_result()
    cell = result.cells[0]
    cell = replace(cell, resources=tuple(replace(u, database=None) for u in cell.resources))
    document = json.loads(render("results.json", replace(result, cells=(cell,))))
    assert document["cells"][0]["database_summary"] is None


def test_database_figures_take_medians_per_run_and_the_largest_peak():
    result = database_sample_result()
    cell = result.cells[1]
    usages = (replace(cell.resources[0], database=DatabaseUsage(
                  cpu_cores=1.0, cpu_seconds=10.0, memory_peak_bytes=100, context_switches=1000)),
              replace(cell.resources[1], database=DatabaseUsage(
                  cpu_cores=2.0, cpu_seconds=20.0, memory_peak_bytes=300, context_switches=None,
                  unavailable="cgroup gone")))
    figures = database_figures(replace(cell, resources=usages))
    assert figures.cores == pytest.approx(1.5)
    assert figures.memory_peak_bytes == 300
    assert figures.context_switches == 1000
    assert figures.cpu_us_per_request == pytest.approx(
        (10.0e6 / cell.runs[0].requests + 20.0e6 / cell.runs[1].requests) / 2)
    assert figures.unavailable == "cgroup gone"


# --- charts ------------------------------------------------------------------------------


def test_a_database_run_draws_each_workloads_charts_by_its_key(tmp_path):
    write_charts(database_sample_result(), tmp_path / "result1.png")
    drawn = sorted(path.name for path in tmp_path.iterdir())
    assert drawn == ["result-cpu-db.png", "result-cpu-queries-20.png", "result1-db.png",
                     "result1-queries-20.png", "result2-db.png", "result2-queries-20.png"]
    assert (DB.key, QUERIES_20.key) == ("db", "queries-20")


def test_a_latency_runs_line_names_the_database_too():
    result = latency_sample_result()
    database = database_sample_result().settings.database
    result = replace(result, settings=replace(result.settings, database=database))
    run_line = render("results.md", result).splitlines()[2]
    assert f"; {describe_database(database)}; httplab " in run_line
