"""The interactive charts of a run's page (presentation/plotly/charts.py and
html/templates/charts.html.j2): which charts each kind of run gets, one trace per server with its
figures in the hover, the table under each chart agreeing with what the chart draws, a
failed cell drawing nothing but listed as failed, and the figures as the page carries them."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html.parser import HTMLParser

import pytest

from httplab.model import BenchResult, ResourceUsage, Settings
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.parts import CEILING_COLOR
from httplab.presentation.plotly.charts import run_charts
from httplab.presentation.html.templating import environment
from httplab.presentation.wording.latency import server_label

from tests.database_sample import database_sample_result
from tests.latency_sample import latency_sample_result
from tests.profile_sample import profile_sample_result
from tests.sample_results import sample_result, workloads_sample_result
from tests.presentation.png.test_sweep import HOST, SERVERS, failed_cell, measured_cell

HEADLINE = ("throughput", "latency", "memory", "cpu")


# Server-bound on a 2-core host (results/bottleneck.py), 10 s of CPU per 10 s run
USAGE = ResourceUsage(cpu_cores=1.9, loadgen_cores=0.1, host_busy_cores=2.0, cpu_seconds=19.0,
                      memory_peak_bytes=300 * 2**20, memory_mean_bytes=290 * 2**20)


def partly_failed_result() -> BenchResult:
    """Netty measured at 4 and 2 threads; Undertow measured at 4, failed at 2."""
    cells = (measured_cell("netty", 4, 500, (50_000, 54_000), (20_000, 30_000), USAGE),
             measured_cell("netty", 2, 500, (40_000, 41_000), (25_000, 26_000), USAGE),
             measured_cell("undertow", 4, 500, (25_000, 27_000), (40_000, 60_000), USAGE),
             failed_cell("undertow", 2, 500))
    return BenchResult(1, "2026-12-01T10-00-00Z",
                       Settings(("netty", "undertow"), (4, 2), (500,), 10.0, "docker",
                                repeat=2), HOST, SERVERS[:2], cells)


def no_cells_result() -> BenchResult:
    return replace(sample_result(), cells=())


def no_steps_result() -> BenchResult:
    result = latency_sample_result()
    return replace(result, latency=replace(result.latency, steps=(), maxima=()))


SAMPLES = {
    "sample": sample_result, "workloads": workloads_sample_result,
    "database": database_sample_result, "profile": profile_sample_result,
    "latency": latency_sample_result, "partly failed": partly_failed_result,
    "no cells": no_cells_result, "no steps": no_steps_result,
}


def headline_keys(*workloads: str) -> list[str]:
    return [f"{chart}-{workload}" for workload in workloads for chart in HEADLINE]


@pytest.mark.parametrize("sample, keys", [
    ("sample", headline_keys("plaintext") + ["sweep-plaintext", "fairness-plaintext"]),
    ("workloads", headline_keys("plaintext", "json", "blocking-10ms")),
    ("database", headline_keys("db", "queries-20")),
    ("profile", headline_keys("plaintext") + ["profile", "variants"]),
    ("latency", ["latency-curve", "max-rate"]),
    ("partly failed", headline_keys("plaintext")),
    ("no cells", []),
    ("no steps", []),
])
def test_each_kind_of_run_gets_its_charts_in_order(sample, keys):
    assert [chart.key for chart in run_charts(SAMPLES[sample]())] == keys


@pytest.mark.parametrize("sample", SAMPLES)
def test_keys_are_unique_valid_ids_and_figures_are_strict_json(sample):
    charts = run_charts(SAMPLES[sample]())
    keys = [chart.key for chart in charts]
    assert len(set(keys)) == len(keys)
    assert all(re.fullmatch(r"[a-z][a-z0-9-]*", key) for key in keys)
    for chart in charts:  # NaN or Infinity would stop JSON.parse in the page
        json.dumps(chart.figure, allow_nan=False)


def _servers_of(result: BenchResult) -> dict[str, str]:
    """Each server's key and the label a trace names it by."""
    label = server_label if result.latency else BenchResult.label
    return {record.name: label(result, record.name) for record in result.servers}


@pytest.mark.parametrize("sample, key, per_server", [
    ("sample", "throughput-plaintext", {"netty": 1}),  # Undertow failed in every cell
    ("sample", "sweep-plaintext", {"netty": 2}),  # Requests/sec above, p99 below
    ("workloads", "throughput-json", {"netty": 1, "undertow": 1, "nginx": 1}),
    ("database", "cpu-db", {"netty": 2, "undertow": 2, "webflux": 2}),  # + the database's
    ("database", "throughput-queries-20", {"netty": 1, "undertow": 1}),  # webflux failed
    ("profile", "profile", {"netty+profiled": 1, "armeria+profiled": 1,
                            "undertow+profiled": 1}),
    ("latency", "latency-curve", {"netty": 1, "undertow": 1, "nginx": 1}),
    ("partly failed", "latency-plaintext", {"netty": 1, "undertow": 1}),
])
def test_every_trace_is_one_server_grouped_by_its_key(sample, key, per_server):
    result = SAMPLES[sample]()
    traces = _chart(result, key).figure["data"]
    groups = [trace["legendgroup"] for trace in traces]
    assert {group: groups.count(group) for group in groups} == per_server
    labels = _servers_of(result)
    assert all(trace["name"].startswith(labels[trace["legendgroup"]]) for trace in traces)


@pytest.mark.parametrize("sample", SAMPLES)
def test_a_server_has_one_name_and_colour_in_every_chart_of_the_page(sample):
    """The toggles name a framework by its traces; the reference is grey, as in the PNGs."""
    result = SAMPLES[sample]()
    names, colours = {}, {}
    for chart in run_charts(result):
        for trace in chart.figure["data"]:
            group = trace["legendgroup"]
            if chart.key != "profile" and "base" not in trace:  # a cell's point, a segment
                assert names.setdefault(group, trace["name"]) == trace["name"]
            assert colours.setdefault(group, trace["marker"]["color"]) == trace["marker"]["color"]
    references = {record.name for record in result.servers if record.is_reference}
    frameworks = [colour for group, colour in colours.items() if group not in references]
    assert len(set(frameworks)) == len(frameworks)
    assert {colours[group] for group in references & colours.keys()} <= {CEILING_COLOR}


def _chart(result: BenchResult, key: str) -> ChartSpec:
    return next(chart for chart in run_charts(result) if chart.key == key)


def _hover(chart: ChartSpec, group: str, point: int, trace_index: int = 0) -> str:
    traces = [trace for trace in chart.figure["data"] if trace["legendgroup"] == group]
    trace = traces[trace_index]
    return trace["hovertemplate"].replace("%{customdata}", trace.get("customdata", [""])[point])


@pytest.mark.parametrize("sample, key, group, point, expected", [
    ("sample", "throughput-plaintext", "netty", 0,
     ("<b>Netty</b>", "10 threads, 500 connections", "Requests/sec: 69,297 (median of 3 runs)",
      "min–max: 61,000–72,000 req/s", "CV: 8.5 %", "limited by the server's CPU",
      "status: ok")),
    ("workloads", "throughput-blocking-10ms", "netty", 0,
     ("share of the bound 6,400 req/s (set by the pool): 99.3 %",
      "no CPU saturated (latency or the connections bound it)")),
    ("workloads", "throughput-json", "netty", 0, ("share of the ceiling: 51.9 %",)),
    ("sample", "latency-plaintext", "netty", 1, ("p99: 61.00 ms",)),
    ("sample", "memory-plaintext", "netty", 0,
     ("memory peak: 310.0 MiB", "memory mean: 285.0 MiB", "CPU: 1.51 cores")),
    ("database", "cpu-db", "netty", 0,
     ("server CPU per request: 45.6 µs", "database CPU per request: 61.9 µs")),
    ("sample", "sweep-plaintext", "netty", 0,
     ("16 connections, 10 threads", "Requests/sec: 58,000 (median of 3 runs)", "p99: 61.00 ms")),
    ("sample", "fairness-plaintext", "netty", 0,
     ("requests / mean: %{y:.2f}", "Netty: max/min ∞, slowest 10 % served")),
    ("latency", "latency-curve", "undertow", 1,
     ("offered: 20,000 req/s", "p99: 11.65 ms", "p50: 1.95 ms", "broke the target in a round")),
    ("latency", "max-rate", "netty", 0,
     ("at least 20,000 req/s, limited by the load tool",)),
    ("profile", "profile", "netty+profiled", 0, ("kernel: 45.0 % of",)),
])
def test_the_hover_carries_the_figures_behind_the_point_with_units(sample, key, group, point,
                                                                   expected):
    hover = _hover(_chart(SAMPLES[sample](), key), group, point)
    for text in expected:
        assert text in hover


def _number(text: str) -> float:
    return float(re.sub(r"[^\d.]", "", text.split("–")[0]))


def _rows(chart: ChartSpec) -> list[dict[str, str]]:
    return [dict(zip(chart.table.columns, row)) for row in chart.table.rows]


def _row(chart: ChartSpec, name: str, **wanted: str) -> dict[str, str]:
    """The table's row of the trace's server (by its name) with these column values."""
    rows = [row for row in _rows(chart) if row[chart.table.columns[0]] == name
            and all(row[column] == value for column, value in wanted.items())]
    assert len(rows) == 1, (name, wanted)
    return rows[0]


def _by_threads(x: str) -> dict[str, str]:
    return {"Threads": x.split()[0]}


def _by(column: str):
    def where(x) -> dict[str, str]:
        return {column: f"{x:,.0f}" if column == "Offered rate (req/s)" else str(x)}
    return where


def _column(name: str, digits: int):
    return lambda x, trace: (name, digits)


# (chart key, where a point's row is, its figure's column and the digits it is shown to)
AGREEMENT = [
    ("throughput-", _by_threads, _column("Requests/sec", 0)),
    ("memory-", _by_threads, _column("Memory peak (MiB)", 1)),
    ("cpu-", _by_threads, _column("Server CPU per request (µs)", 1)),
    ("latency-p", lambda x: {}, lambda x, trace: (f"{x} (ms)", 2)),
    ("sweep-", _by("Connections"), lambda x, trace: ("Requests/sec", 0) if trace["yaxis"] == "y"
     else ("p99 (ms)", 2)),
    ("latency-curve", _by("Offered rate (req/s)"), _column("p99 (ms)", 2)),
    ("profile", lambda x: {}, lambda x, trace: (x, 1)),
]


@pytest.mark.parametrize("sample", SAMPLES)
def test_each_table_holds_the_figures_its_chart_draws(sample):
    checked = 0
    for chart in run_charts(SAMPLES[sample]()):
        rule = next((rule for rule in AGREEMENT if chart.key.startswith(rule[0])), None)
        if rule is None:
            continue
        _, where, column = rule
        for trace in chart.figure["data"]:
            if "base" in trace:  # the database's segment: its column is checked below
                continue
            for x, y in zip(trace["x"], trace["y"]):
                if y is None:
                    continue
                row = _row(chart, trace["name"], **where(x))
                name, digits = column(x, trace)
                assert _number(row[name]) == pytest.approx(round(y, digits), abs=10 ** -digits)
                checked += 1
    assert checked or not run_charts(SAMPLES[sample]())


def test_the_database_segment_sits_on_the_server_bar_as_the_table_says():
    chart = _chart(database_sample_result(), "cpu-db")
    server, database = [t for t in chart.figure["data"] if t["legendgroup"] == "netty"]
    row = _row(chart, "Netty", Threads="4")
    assert database["base"] == server["y"]
    assert _number(row["Database CPU per request (µs)"]) == round(database["y"][0], 1)
    assert database["showlegend"] is False


def test_a_failed_cell_draws_no_bar_and_is_in_the_table_as_failed():
    chart = _chart(partly_failed_result(), "throughput-plaintext")
    undertow = next(t for t in chart.figure["data"] if t["legendgroup"] == "undertow")
    assert dict(zip(undertow["x"], undertow["y"])) == {"4 threads": 26_000, "2 threads": None}
    row = _row(chart, "Undertow", Threads="2")
    assert row["Status"].startswith("failed: connection refused")
    assert row["Requests/sec"] == "—"
    assert [mark["text"] for mark in chart.figure["layout"]["annotations"]] == [
        "Undertow: failed"]
    assert "Not drawn: Undertow t2 c500 (failed)." in chart.caption


def test_a_sweep_point_not_limited_by_the_server_is_hollow_and_a_failed_one_a_gap():
    result = replace(partly_failed_result(), cells=partly_failed_result().cells + (
        measured_cell("undertow", 4, 16, (9_000, 9_500), (800, 900), usage=None),))
    chart = _chart(result, "sweep-plaintext")
    rates = next(t for t in chart.figure["data"] if t["legendgroup"] == "undertow")
    assert rates["x"] == [16, 500]
    assert rates["marker"]["symbol"] == ["circle-open", "circle"]  # CPU not sampled at 16
    assert rates["connectgaps"] is False


def test_a_latency_run_draws_p99_first_and_switches_to_the_other_percentiles():
    chart = _chart(latency_sample_result(), "latency-curve")
    menu = chart.figure["layout"]["updatemenus"][0]
    labels = [button["label"] for button in menu["buttons"]]
    assert labels == ["p50", "p99", "p99.9"] and menu["active"] == 1
    shown = [trace["y"] for trace in chart.figure["data"]]
    assert menu["buttons"][1]["args"][0]["y"] == shown
    target = chart.figure["layout"]["shapes"][0]
    assert target["y0"] == target["y1"] == 10.0  # the p99 target, 10 ms


class _Page(HTMLParser):
    """What the macro wrote: each figure's id, its div's attributes, its JSON, its table."""

    def __init__(self):
        super().__init__()
        self.figures, self.divs, self.json, self.rows, self.failed = [], [], [], 0, 0
        self.toggles, self._in_script = 0, False

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "figure":
            self.figures.append(found["id"])
        elif tag == "div" and "chart" in found.get("class", "").split():
            self.divs.append(found)
        elif tag == "div" and "toggles" in found.get("class", "").split():
            self.toggles += 1
        elif tag == "script" and found.get("type") == "application/json":
            self._in_script = True
            self.json.append("")
        elif tag == "tr" and self.json:
            self.rows += 1
            self.failed += found.get("class") == "failed"

    def handle_endtag(self, tag):
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data):
        if self._in_script:
            self.json[-1] += data


def _rendered(charts: tuple[ChartSpec, ...]) -> _Page:
    page = _Page()
    page.feed(_render_section(charts))
    return page


def _render_section(charts: tuple[ChartSpec, ...]) -> str:
    template = environment().from_string(
        '{% from "charts.html.j2" import chart_section %}{{ chart_section(charts) }}')
    return template.render(charts=charts)


@pytest.mark.parametrize("sample", ["sample", "database", "latency", "partly failed"])
def test_the_section_carries_each_figure_its_count_of_traces_and_its_table(sample):
    charts = run_charts(SAMPLES[sample]())
    page = _rendered(charts)
    assert page.figures == [f"chart-{chart.key}" for chart in charts]
    assert [div["data-traces"] for div in page.divs] == [str(chart.traces) for chart in charts]
    assert all("hidden" in div for div in page.divs)  # until charts.js draws it
    assert [json.loads(text) for text in page.json] == [chart.figure for chart in charts]
    header_rows = len(charts)
    assert page.rows == header_rows + sum(len(chart.table.rows) for chart in charts)
    assert page.failed == sum(row[-1].startswith("failed") for chart in charts
                              for row in chart.table.rows if chart.table.columns[-1] == "Status")
    assert page.toggles == 1


def test_a_page_without_charts_gets_no_section():
    assert _render_section(()).strip() == ""


def test_a_label_cannot_end_the_script_that_carries_the_figure():
    result = sample_result()
    servers = (replace(result.servers[0], label="Netty</script><b>"),) + result.servers[1:]
    page = _rendered(run_charts(replace(result, servers=servers)))
    assert json.loads(page.json[0])["data"][0]["name"] == "Netty</script><b>"
