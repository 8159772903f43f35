"""What a user reads of a run with several workloads: results.md's sections (one per
workload, plaintext first, nginx "not applicable" where it has no endpoint, the bound
waiting sets beside each rate), the CSV's and JSON's workload and bound figures, the charts
named by workload (a run without plaintext leaves result1.png), warnings and compare
matching on the workload. A run of plaintext alone renders as before: the golden files of
tests/presentation/test_exporters.py."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from httplab.model import PLAINTEXT, Workload
from httplab.presentation.png.throughput import BOUND_LABEL, build_throughput_figure, chart_title
from httplab.presentation.compare.bench import compare_results, render_comparison
from httplab.presentation.exporters import all_exporters
from httplab.presentation.wording.settings import describe_settings
from httplab.presentation.views.points import of_workload, run_workloads
from httplab.presentation.publish import headline_chart_path, write_charts
from httplab.presentation.views.charts import workload_chart_path
from httplab.presentation.compare.runs import incomparable_reason, render_run_comparison
from httplab.results.ceiling import ceiling_share, reference_cell
from httplab.results.stability import cell_name
from httplab.results.warning_groups import warning_groups

from tests.sample_results import BLOCKING_10MS, JSON, sample_result, workloads_sample_result
from tests.support.update_golden import GOLDEN

CASE = GOLDEN / "workloads"


def render(name: str, result) -> str:
    return next(e for e in all_exporters() if e.file_name == name).render(result)


def without(result, *workloads: Workload):
    return replace(result, cells=tuple(c for c in result.cells if c.workload not in workloads))


@pytest.mark.parametrize("exporter", all_exporters(), ids=lambda e: e.file_name)
def test_a_run_of_several_workloads_matches_its_golden_file(exporter):
    golden = CASE / exporter.file_name
    assert golden.is_file(), f"no golden file {golden}: run `make golden` and review the diff"
    assert exporter.render(workloads_sample_result()) == golden.read_text(), (
        f"{exporter.file_name} differs from {golden}; if intended, run `make golden`")


# --- results.md ------------------------------------------------------------------------


def test_markdown_has_one_section_per_workload_plaintext_first():
    markdown = render("results.md", workloads_sample_result())
    headings = [line for line in markdown.splitlines() if line.startswith("###")]
    assert headings == ["### Workload: plaintext — GET /", "### Workload: json — GET /json",
                        "### Workload: blocking 10 ms — GET /blocking?ms=10"]
    assert markdown.count("Where the CPU went") == 3
    assert markdown.count("Servers as run:") == 1 and markdown.count("Warnings:") == 1


@pytest.mark.parametrize("urls, heading", [
    ("http://127.0.0.1:8080/json, http://127.0.0.1:8080/plaintext, "
     "http://127.0.0.1:8080/blocking?ms=10", "### Workload: plaintext — GET /plaintext"),
    ("http://127.0.0.1:8080/json, http://127.0.0.1:8080/blocking?ms=10",
     "### Workload: plaintext — GET /"),
])
def test_the_plaintext_heading_takes_the_url_no_other_workload_requests(urls, heading):
    result = workloads_sample_result()
    result = replace(result, settings=replace(result.settings, url=urls))
    assert heading in render("results.md", result).splitlines()


def test_plaintext_comes_first_whatever_the_cells_order():
    result = workloads_sample_result()
    reordered = replace(result, cells=result.cells[::-1])
    assert run_workloads(reordered) == (PLAINTEXT, BLOCKING_10MS, JSON)


def test_a_run_of_plaintext_alone_has_no_workload_heading():
    markdown = render("results.md", sample_result())
    assert "### Workload" not in markdown and "workloads" not in markdown


def test_a_run_without_plaintext_still_names_its_workload():
    markdown = render("results.md", without(workloads_sample_result(), PLAINTEXT, JSON))
    assert [line for line in markdown.splitlines() if line.startswith("###")] == [
        "### Workload: blocking 10 ms — GET /blocking?ms=10"]


def test_nginx_is_not_applicable_on_blocking_not_failed():
    markdown = render("results.md", workloads_sample_result())
    blocking = markdown.split("### Workload: blocking 10 ms")[1]
    assert ("| nginx (ceiling reference) | — | — | — |" in blocking
            and "| not applicable: nginx has no /blocking endpoint |" in blocking)
    assert "failed" not in blocking
    assert "| Netty | 4 | 256 | 6355.00 | not applicable |" in blocking  # its share of ceiling
    json_section = markdown.split("### Workload: json")[1].split("### Workload")[0]
    assert "| Netty | 4 | 256 | 61400.00 | 52% |" in json_section  # nginx's json is its ceiling


def test_the_bound_stands_beside_each_rate_with_its_rule_under_the_table():
    markdown = render("results.md", workloads_sample_result())
    blocking = markdown.split("### Workload: blocking 10 ms")[1]
    assert ("| Netty | 4 | 256 | 6355.00 | 25600.00 | 64 / 64 | 6400.00 | 6400.00 (pool) | 99% |"
            in blocking)
    assert ("| Undertow (200 workers) | 4 | 256 | 17800.00 | 25600.00 | 200 / 200 | 20000.00 "
            "| 20000.00 (pool) | 89% |" in blocking)
    table_end = blocking.index("| 89% |")
    rule = blocking[table_end:].split("\n\n")[1]
    assert rule.startswith("wrk keeps one request in flight per connection") and "\n" not in rule
    assert "### Workload: json" not in blocking
    assert markdown.split("### Workload: blocking")[0].count("Share of bound") == 0


def test_delay_bounds_by_the_connections_alone():
    result = workloads_sample_result()
    delay = Workload("delay", 10)
    cells = tuple(replace(c, workload=delay) for c in result.cells if c.workload == BLOCKING_10MS)
    markdown = render("results.md", replace(result, cells=cells))
    assert "### Workload: delay 10 ms — GET /delay?ms=10" in markdown
    assert "| Framework | Threads | Connections | Requests/sec | Bound: connections ÷ delay | " \
           "Share of bound |" in markdown
    assert "| Netty | 4 | 256 | 6355.00 | 25600.00 | 25% |" in markdown
    assert "not applicable: nginx has no /delay endpoint" in markdown
    assert "pool threads ÷" not in markdown


def test_the_run_line_names_the_workloads_only_beyond_plaintext():
    settings = workloads_sample_result().settings
    assert describe_settings(settings).endswith(
        "workloads plaintext, json and blocking 10 ms; server on CPUs 1; wrk on CPUs 0")
    assert "workload" not in describe_settings(replace(settings, workloads=(PLAINTEXT,)))


def test_a_failed_waiting_cell_keeps_its_bound_but_no_share():
    from httplab.model import CellStatus

    result = workloads_sample_result()
    failed = replace(result.cells[7], status=CellStatus.FAILED, reason="crashed", runs=(),
                     resources=())
    markdown = render("results.md", replace(result, cells=(*result.cells[:7], failed)))
    assert ("| Undertow (200 workers) | 4 | 256 | — | 25600.00 | 200 / — | 20000.00 "
            "| 20000.00 (pool) | — |" in markdown)


# --- the ceiling and warnings keep to their workload -------------------------------------


def test_the_ceiling_is_the_references_cell_of_the_same_workload():
    result = workloads_sample_result()
    netty_plain, netty_json, netty_blocking = result.cells[0], result.cells[3], result.cells[6]
    assert reference_cell(netty_plain, result) is result.cells[2]
    assert reference_cell(netty_json, result) is result.cells[5]
    assert reference_cell(netty_blocking, result) is None
    assert ceiling_share(netty_json, result) == pytest.approx(61400 / 118400)


def test_warnings_name_the_workload_beyond_plaintext():
    result = workloads_sample_result()
    assert cell_name(result.cells[7], "Undertow") == "Undertow blocking 10 ms t4 c256"
    assert cell_name(result.cells[1], "Undertow") == "Undertow t4 c256"
    (group,) = warning_groups(result)
    assert group.warnings[0].cell == "Undertow (200 workers) blocking 10 ms t4 c256"
    assert not group.every_measured_cell


# --- CSV and JSON ------------------------------------------------------------------------


def test_every_csv_row_carries_its_workload_and_waiting_rows_their_bound():
    rows = list(csv.DictReader(io.StringIO(render("results.csv", workloads_sample_result()))))
    assert [(r["server"], r["workload"], r["workload_name"], r["delay_ms"]) for r in rows][::3] == [
        ("netty", "plaintext", "plaintext", ""), ("netty", "json", "json", ""),
        ("netty", "blocking-10ms", "blocking", "10")]
    undertow = rows[7]
    assert {key: undertow[key] for key in (
        "bound_requests_per_sec", "bound_set_by", "share_of_bound",
        "connections_bound_requests_per_sec", "pool_bound_requests_per_sec", "blocking_pool",
        "blocking_pool_threads_max", "share_of_ceiling")} == {
        "bound_requests_per_sec": "20000.00", "bound_set_by": "pool", "share_of_bound": "0.8900",
        "connections_bound_requests_per_sec": "25600.00",
        "pool_bound_requests_per_sec": "20000.00", "blocking_pool": "200",
        "blocking_pool_threads_max": "200", "share_of_ceiling": ""}
    assert all(row["bound_requests_per_sec"] == "" for row in rows[:6])


def test_plaintext_csv_rows_say_plaintext():
    rows = list(csv.DictReader(io.StringIO(render("results.csv", sample_result()))))
    assert {(row["workload"], row["workload_name"], row["delay_ms"]) for row in rows} == {
        ("plaintext", "plaintext", "")}


def test_json_adds_the_bound_beside_the_summary_of_waiting_cells_only():
    cells = json.loads(render("results.json", workloads_sample_result()))["cells"]
    keys = list(cells[7])
    assert keys.index("littles_law_bound") == keys.index("requests_per_sec_summary") + 1
    assert cells[7]["littles_law_bound"] == {
        "bound_requests_per_sec": 20000.0, "set_by": "pool", "share_of_bound": 0.89,
        "connections_bound_requests_per_sec": 25600.0, "pool_bound_requests_per_sec": 20000.0,
        "blocking_pool": 200, "blocking_pool_threads_max": 200}
    assert all("littles_law_bound" not in cell for cell in cells[:6])


# --- charts ------------------------------------------------------------------------------


@pytest.mark.parametrize("chart, workload, expected", [
    ("image/result1.png", PLAINTEXT, "image/result1.png"),
    ("image/result1.png", JSON, "image/result1-json.png"),
    ("image/result1.png", BLOCKING_10MS, "image/result1-blocking-10ms.png"),
    ("image/result2.png", Workload("delay", 25), "image/result2-delay-25ms.png"),
    ("image/result-cpu.png", BLOCKING_10MS, "image/result-cpu-blocking-10ms.png"),
    ("image/workloads/result3.png", JSON, "image/workloads/result3-json.png"),
    ("/tmp/out/chart-4.png", BLOCKING_10MS, "/tmp/out/chart-4-blocking-10ms.png"),
])
def test_each_workloads_charts_are_named_by_its_key(chart, workload, expected):
    assert workload_chart_path(Path(chart), workload) == Path(expected)


def test_a_run_draws_each_workloads_charts(tmp_path):
    write_charts(workloads_sample_result(), tmp_path / "result1.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{stem}{suffix}.png" for stem in ("result1", "result2", "result-cpu")
        for suffix in ("", "-json", "-blocking-10ms"))


def test_a_run_without_plaintext_leaves_result1_and_its_companions_alone(tmp_path):
    older = {name: f"older {name}".encode() for name in (
        "result1.png", "result2.png", "result-cpu.png", "result3.png", "result4.png")}
    for name, content in older.items():
        (tmp_path / name).write_bytes(content)
    write_charts(without(workloads_sample_result(), PLAINTEXT, JSON), tmp_path / "result1.png")
    for name, content in older.items():
        assert (tmp_path / name).read_bytes() == content, f"{name} was touched"
    assert sorted(p.name for p in tmp_path.iterdir() if "blocking" in p.name) == [
        "result-cpu-blocking-10ms.png", "result1-blocking-10ms.png", "result2-blocking-10ms.png"]


def test_only_the_measured_workloads_older_charts_are_removed(tmp_path):
    (tmp_path / "result3-blocking-10ms.png").write_bytes(b"an older sweep of blocking")
    (tmp_path / "result3-json.png").write_bytes(b"an older sweep of json")
    write_charts(without(workloads_sample_result(), JSON), tmp_path / "result1.png")
    assert not (tmp_path / "result3-blocking-10ms.png").exists()
    assert (tmp_path / "result3-json.png").exists()


def test_the_headline_chart_is_the_first_workloads():
    image = Path("image/workloads/result1.png")
    assert headline_chart_path(workloads_sample_result(), image) == image
    blocking_only = without(workloads_sample_result(), PLAINTEXT, JSON)
    assert headline_chart_path(blocking_only, image) == Path(
        "image/workloads/result1-blocking-10ms.png")
    assert headline_chart_path(replace(blocking_only, cells=()), image) is None


def bound_lines(axes) -> list:
    return [c for c in axes.collections if c.get_label() == BOUND_LABEL]


def test_the_throughput_chart_of_blocking_draws_each_servers_bound():
    blocking = of_workload(workloads_sample_result(), BLOCKING_10MS)
    axes = build_throughput_figure(blocking).axes[0]
    bounds = sorted(segment[0][1] for collection in bound_lines(axes)
                    for segment in collection.get_segments())
    assert bounds == [6400.0, 20000.0]
    ticks = [label.get_text() for label in axes.get_xticklabels()]
    assert ticks == ["Undertow (200 workers)\nbound 20,000\n(pool)", "Netty\nbound 6,400\n(pool)"]
    labels = {t.get_text() for t in axes.texts}
    assert {"17,800\n89%", "6,355\n99%"} <= labels
    legend = [text.get_text() for text in axes.get_legend().get_texts()]
    assert any(text.startswith("dotted: the bound waiting sets") for text in legend)
    assert not any("ceiling" in text for text in legend), "nginx has no blocking cell"
    assert "blocking 10 ms" in chart_title(blocking)


def test_the_throughput_chart_of_plaintext_draws_no_bound():
    plaintext = of_workload(workloads_sample_result(), PLAINTEXT)
    axes = build_throughput_figure(plaintext).axes[0]
    assert not bound_lines(axes)
    assert "\n" not in "".join(label.get_text() for label in axes.get_xticklabels())
    assert chart_title(plaintext) == chart_title(replace(plaintext, cells=plaintext.cells))
    assert "plaintext" not in chart_title(plaintext)


# --- make compare ------------------------------------------------------------------------


def test_compare_matches_cells_on_their_workload():
    result = workloads_sample_result()
    comparisons = compare_results(result, result)
    assert len(comparisons) == len(result.cells)
    assert {c.workload for c in comparisons} == {PLAINTEXT, JSON, BLOCKING_10MS}
    header = next(line for line in render_comparison(comparisons).splitlines()
                  if line.startswith("Server  "))
    assert "Workload" in header
    table = render_comparison(comparisons)
    assert "blocking 10 ms" in table


def test_a_plaintext_comparison_has_no_workload_column():
    result = sample_result()
    assert "Workload" not in render_comparison(compare_results(result, result))


def test_runs_of_different_workloads_share_no_cells_said_in_one_line():
    plaintext = sample_result()
    blocking = without(workloads_sample_result(), PLAINTEXT, JSON)
    reason = incomparable_reason(plaintext, blocking)
    assert reason == ("cannot compare: base measured plaintext and new blocking 10 ms; cells "
                      "are matched on their workload, so these runs share none")
    assert render_run_comparison(plaintext, blocking, "a", "b") == reason + "\n"
    assert incomparable_reason(workloads_sample_result(), blocking) is None


def test_runs_with_some_workloads_in_common_say_how_their_workloads_differ():
    both = workloads_sample_result()
    plaintext_only = replace(without(both, JSON, BLOCKING_10MS),
                             settings=replace(both.settings, workloads=(PLAINTEXT,)))
    text = render_run_comparison(plaintext_only, both, "a", "b")
    assert "note: workloads differs: base plaintext, new plaintext, json, blocking 10 ms" in text
    assert "missing in base" in text
