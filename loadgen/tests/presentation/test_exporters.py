"""Golden-file tests: each exporter's output for a fixed result, byte for byte.

The tests only compare. After an intended format change, regenerate the files with
`make golden` (tests/support/update_golden.py) and review the diff."""

import csv
import io
import json

import pytest

from httplab.presentation.exporters import all_exporters
from httplab.results.results_json.read import result_from_dict
from httplab.results.results_json.version import FORMAT_VERSION, ResultsFormatError

from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result
from tests.support.results_formats import as_format
from tests.support.update_golden import GOLDEN, GOLDEN_CASES, update_golden


@pytest.mark.parametrize("exporter", all_exporters(), ids=lambda e: e.file_name)
def test_export_matches_golden_file(exporter):
    rendered = exporter.render(sample_result())
    golden = GOLDEN / exporter.file_name
    assert golden.is_file(), f"no golden file {golden}: run `make golden` and review the diff"
    assert rendered == golden.read_text(), (
        f"{exporter.file_name} differs from its golden file {golden}; if the format change is "
        "intended, run `make golden` and review the diff")


def test_update_golden_writes_every_exporter_and_reports_only_changes(tmp_path):
    exporters = all_exporters()
    names = sorted(e.file_name for e in exporters)
    written = update_golden(tmp_path)
    cases = [case for case, _ in GOLDEN_CASES if case]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == sorted(
        names + [f"{case}/{name}" for case in cases for name in names])
    for exporter in exporters:  # the very text the golden-file tests render
        assert (tmp_path / exporter.file_name).read_text() == exporter.render(sample_result())
        assert ((tmp_path / "latency" / exporter.file_name).read_text()
                == exporter.render(latency_sample_result()))
    assert update_golden(tmp_path) == []  # nothing changed the second time
    (tmp_path / "results.csv").write_text("stale\n")
    assert update_golden(tmp_path) == [tmp_path / "results.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names + cases)


def test_json_round_trips_to_the_same_result():
    result = sample_result()
    (json_exporter,) = [e for e in all_exporters() if e.file_name == "results.json"]
    assert result_from_dict(json.loads(json_exporter.render(result))) == result


def test_json_carries_format_version_host_and_failure_reasons():
    data = json.loads(next(e for e in all_exporters() if e.file_name == "results.json")
                      .render(sample_result()))
    assert data["format_version"] == FORMAT_VERSION
    assert data["host"]["cpu_model"] == "Test CPU @ 3.40GHz"
    assert data["cells"][2]["status"] == "failed"
    assert data["cells"][2]["reason"].startswith("verification failed")
    assert data["cells"][0]["runs"][0]["latency_us"]["percentiles"]["p99.9"] == 120500.5


def test_markdown_successful_rate_excludes_non_2xx():
    markdown = next(e for e in all_exporters() if e.file_name == "results.md").render(sample_result())
    # 75561.34 req/s with 1000 of 761658 requests non-2xx: 75561.34 * 760658 / 761658
    assert "| Netty | 5 | 500 | 2 | 75561.34 | 75561.34–75561.34 | 0.0% | 75462.13 |" in markdown
    # the median of three runs, their range and coefficient of variation
    assert "| Netty | 10 | 500 | 1 | 69296.64 | 61000.50–72000.00 | 8.5% | 69296.64 |" in markdown


def test_unknown_format_version_is_refused():
    with pytest.raises(ResultsFormatError, match="version 99"):
        result_from_dict({"format_version": 99})


def test_a_multi_line_reason_stays_on_one_table_row():
    from dataclasses import replace

    from httplab.model import Cell, CellStatus

    result = sample_result()
    failed = Cell("undertow", 10, 500, CellStatus.FAILED, reason="never healthy; logs:\nline a\nx | y")
    result = replace(result, cells=(failed,))
    markdown = next(e for e in all_exporters() if e.file_name == "results.md").render(result)
    assert ("| failed: never healthy; logs: / line a / x \\| y (server output: raw/undertow.log) |"
            in markdown)


def render(name: str, result) -> str:
    return next(e for e in all_exporters() if e.file_name == name).render(result)


def one_machine(result):
    """The sample with its two-generator runs replaced by plain one-machine runs."""
    from dataclasses import replace

    cells = tuple(replace(cell, runs=tuple(replace(run, generators=()) for run in cell.runs))
                  for cell in result.cells)
    return replace(result, cells=cells)


# (exporter, result, the Generators header it shows or None)
GENERATOR_COLUMNS = [
    ("results.md", "two generators", "| Connections | Generators | Requests/sec |"),
    ("results.md", "one machine", None),
    ("results.csv", "two generators", "connections,generators,runs"),
    ("results.csv", "one machine", "connections,generators,runs"),
]


@pytest.mark.parametrize(("name", "case", "header"), GENERATOR_COLUMNS,
                         ids=[f"{n}-{c}" for n, c, _ in GENERATOR_COLUMNS])
def test_the_generators_column_shows_in_markdown_only_when_a_cell_had_several(name, case, header):
    result = sample_result() if case == "two generators" else one_machine(sample_result())
    text = render(name, result)
    if header is None:
        assert "Generators" not in text
        assert "| Netty | 5 | 500 | 75561.34 |" in text
    else:
        assert header in text


def test_csv_counts_each_cells_generators():
    rows = list(csv.DictReader(io.StringIO(render("results.csv", sample_result()))))
    assert [(row["threads"], row["generators"]) for row in rows] == [
        ("10", "1"), ("5", "2"), ("10", ""), ("5", ""), ("10", "1")]


def test_a_runs_notes_show_in_the_status_and_the_csv():
    from dataclasses import replace

    result = sample_result()
    note = "latency unknown: generator 2 (ssh://b) wrote no latency histogram"
    cell = result.cells[1]
    noted = replace(cell, runs=tuple(replace(run, notes=(note,)) for run in cell.runs))
    result = replace(result, cells=(noted,))
    assert f"ok (CPU and memory unavailable: no cgroup access) ({note}) |" in render("results.md", result)
    (row,) = csv.DictReader(io.StringIO(render("results.csv", result)))
    assert row["notes"] == note


def test_json_keeps_each_generators_run_but_no_histogram():
    data = json.loads(render("results.json", sample_result()))
    run = data["cells"][1]["runs"][0]
    assert [g["engine"] for g in run["generators"]] == ["ssh://lab@loadgen-a", "ssh://lab@loadgen-b"]
    assert (run["start_skew_s"], run["latency_samples"], run["latency_histogram_exact"]) == (
        0.13, 767658, True)
    assert "latency_histogram" not in json.dumps(data).replace("latency_histogram_exact", "")


def test_a_format_4_file_still_reads_with_the_new_fields_unknown():
    data = as_format(json.loads(render("results.json", one_machine(sample_result()))), 4)
    for cell in data["cells"]:
        for run in cell["runs"]:
            for key in ("latency_histogram_exact", "latency_samples", "ended_at_s", "engine",
                        "start_skew_s", "notes", "generators"):
                del run[key]
    run = result_from_dict(data).cells[0].runs[0]
    assert (run.generators, run.ended_at_s, run.latency_samples, run.notes) == ((), None, None, ())


def test_a_format_5_file_reads_one_connection_count_and_no_fairness():
    data = as_format(json.loads(render("results.json", sample_result())), 5)
    data["settings"]["connections"] = 500
    del data["settings"]["fairness"]
    for cell in data["cells"]:
        del cell["fairness"]
    result = result_from_dict(data)
    assert (result.settings.connections, result.settings.fairness) == ((500,), False)
    assert all(cell.fairness == () for cell in result.cells)


# (connections, fairness, what the preamble says, what it must not)
PREAMBLES = [
    ((500,), False, "wrk with 500 connections, threads 10 and 5,", "fairness"),
    ((16, 500), True, "wrk with 16 and 500 connections,", None),
    ((16, 128, 500), True, "wrk with 16, 128 and 500 connections,", None),
    ((500,), True, "(not measured); fairness: h2load after each measured run; server on", None),
]


@pytest.mark.parametrize(("connections", "fairness", "said", "unsaid"), PREAMBLES)
def test_the_preamble_names_every_connection_count_and_whether_h2load_ran(
        connections, fairness, said, unsaid):
    from dataclasses import replace

    result = sample_result()
    result = replace(result, settings=replace(result.settings, connections=connections,
                                              fairness=fairness))
    preamble = render("results.md", result).split("\n\n| Framework")[0]
    assert said in preamble
    assert unsaid is None or unsaid not in preamble


def test_each_export_carries_a_cells_fairness_figures_or_says_none():
    markdown = render("results.md", sample_result())
    assert "| Netty | 10 | 500 | 3 | 1.26× | 5.5% | — |" in markdown  # h2load's summary only
    assert "| Netty | 10 | 16 | 3 | ∞ | 26.3% | 3.6% |" in markdown  # a connection got nothing
    assert "| Netty | 5 | 500 | 0 | — | — | — |" in markdown
    rows = list(csv.DictReader(io.StringIO(render("results.csv", sample_result()))))
    assert [(row["connections"], row["fairness_spread"], row["fairness_cv"],
             row["fairness_slowest_10pct_share"]) for row in rows] == [
        ("500", "1.2607", "0.0546", ""), ("500", "", "", ""), ("500", "", "", ""),
        ("500", "", "", ""), ("16", "inf", "0.2634", "0.0365")]
    cells = json.loads(render("results.json", sample_result()))["cells"]
    assert [cell["fairness_summary"] and cell["fairness_summary"]["spread"] for cell in cells] == [
        pytest.approx(1.2607, abs=1e-4), None, None, None, "inf"]
    assert len(cells[4]["fairness"][0]["connection_bytes"]) == 16


def test_the_fairness_table_shows_only_when_h2load_ran():
    from dataclasses import replace

    result = sample_result()
    result = replace(result, cells=tuple(replace(cell, fairness=()) for cell in result.cells))
    assert "Per-connection fairness" not in render("results.md", result)
    assert "Per-connection fairness (h2load" in render("results.md", sample_result())
