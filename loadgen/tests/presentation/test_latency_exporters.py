"""A make latency run's results.{md,csv,json}: golden files of a hand-built run
(tests/latency_sample.py), results.json read back exactly and older formats still read,
and what each table says of a maximum, a failed step and the common rate.

The golden-file tests only compare: after an intended format change, `make golden` and
review the diff of tests/fixtures/golden/latency."""

import csv
import io
import json
from dataclasses import replace

import pytest

from httplab.model import StepVerdict, SustainedRate
from httplab.presentation.exporters import all_exporters
from httplab.results.results_json.read import result_from_dict
from httplab.results.results_json.version import FORMAT_VERSION, ResultsFormatError
from httplab.results.results_json.write import result_to_dict

from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result
from tests.support.results_formats import as_format
from tests.support.update_golden import GOLDEN

LATENCY_GOLDEN = GOLDEN / "latency"


def render(name: str, result) -> str:
    return next(e for e in all_exporters() if e.file_name == name).render(result)


def with_latency(**changes):
    result = latency_sample_result()
    return replace(result, latency=replace(result.latency, **changes))


@pytest.mark.parametrize("exporter", all_exporters(), ids=lambda e: e.file_name)
def test_latency_export_matches_golden_file(exporter):
    golden = LATENCY_GOLDEN / exporter.file_name
    assert golden.is_file(), f"no golden file {golden}: run `make golden` and review the diff"
    assert exporter.render(latency_sample_result()) == golden.read_text(), (
        f"{exporter.file_name} differs from {golden}; if the format change is intended, run "
        "`make golden` and review the diff")


def test_a_latency_result_reads_back_exactly_from_dict_and_from_results_json():
    result = latency_sample_result()
    assert result_from_dict(result_to_dict(result)) == result
    assert result_from_dict(json.loads(render("results.json", result))) == result


@pytest.mark.parametrize("version", [1, 2, 3, 4, 5, 6])
def test_older_formats_still_read_with_no_latency(version):
    data = as_format(json.loads(render("results.json", sample_result())), version)
    del data["latency"]
    assert result_from_dict(data).latency is None


def test_a_bench_writes_latency_null_and_reads_back_none():
    data = json.loads(render("results.json", sample_result()))
    assert data["format_version"] == FORMAT_VERSION and data["latency"] is None
    assert result_from_dict(data).latency is None


def test_an_unknown_verdict_is_a_format_error():
    data = json.loads(render("results.json", latency_sample_result()))
    data["latency"]["steps"][0]["verdict"] = "fine"
    with pytest.raises(ResultsFormatError, match="fine"):
        result_from_dict(data)


def test_results_json_keeps_every_step_field_and_adds_each_steps_cost():
    data = json.loads(render("results.json", latency_sample_result()))["latency"]
    assert (data["slo_p99_us"], data["cost_rate"], data["cost_rate_source"], data["tool"]) == (
        10000.0, 10000.0, "lowest maximum", "oha 1.16.0")
    errors = next(step for step in data["steps"] if step["verdict"] == "errors")
    assert errors["errors"] == {"HTTP 503": 8120, "connection error": 400}
    assert errors["latency_us"]["percentiles"]["p99.9"] == 90000.0
    assert errors["resources"]["threads_max"] == 212
    assert errors["cpu_us_per_request"] == pytest.approx(9.9 / 388000 * 1e6)
    assert data["maxima"][1] == {
        "server": "undertow", "rounds": [10000.0, 20000.0], "value": 10000.0,
        "limited_by_tool": False,
        "broke_at": ["20000/s: p99 14.2 ms over the target of 10.0 ms",
                     "40000/s: the server stopped during the step (exit 137)"],
        "host_rounds": []}


def test_the_max_table_says_at_least_none_held_and_each_round():
    result = latency_sample_result()
    maxima = result.latency.maxima + (SustainedRate("slow", (None, 1000.0),
                                                    broke_at=("1000/s: p99", "2000/s: p99")),)
    markdown = render("results.md", replace(result, latency=replace(result.latency,
                                                                     maxima=maxima)))
    assert ("| Netty | at least 20,000 req/s, limited by the load tool | 20,000, 20,000 | "
            "40000/s: the load tool could not hold the rate") in markdown
    assert ("| Undertow (200 workers) | 10,000 req/s | 10,000, 20,000 | round 1: 20000/s: p99 "
            "14.2 ms over the target of 10.0 ms; round 2: 40000/s: the server stopped") in markdown
    assert "| slow | none held | none held, 1,000 | round 1: 1000/s: p99; round 2:" in markdown
    assert "| nginx (reference) | 40,000 req/s |" in markdown


# What results.md says of the sample, a line at a time: (what, the text)
MARKDOWN_SAYS = [
    ("a failed step", "| Undertow (200 workers) | 2 | 40,000 | — | 800 | — | — | — | — | — | — "
                      "| — | — | — | — | — | — | failed: the server stopped during the step "
                      "(exit 137) |"),
    ("errors by kind", "| 800 | 8,520: HTTP 503 ×8,120, connection error ×400 | 3.50 |"),
    ("connections that ran out", "| 20,000 | 20,000 | 400 (ran out) | 0 | 2.10 | 5.25 | 14.2 "
                                 "| 21.3 | 42.6 |"),
    ("the common rate", "The common rate is 10,000 req/s: the lowest of the servers' max "
                        "sustainable rates"),
    ("a cost and its CPU verdict", "| nginx (reference) | 1 | 10,000 | 0.50 | yes | 11.00us | "
                                   "0.06 | 12.00MB | 5 | 0.34 | 0.55 | none | server 0.11 of 1 "
                                   "cores, oha 0.34 of 1, host busy 0.55 of 4 |"),
    ("the tool and the target", "oha 1.16.0 at fixed rates of 10000, 20000, 40000 req/s, against "
                                "http://127.0.0.1:8080/; target p99 ≤ 10 ms; 10 s measured per "
                                "step, after 5 s unmeasured at its rate; 2 rounds"),
    ("how latency counts", "counts its latency from that due time"),
]


@pytest.mark.parametrize(("what", "text"), MARKDOWN_SAYS, ids=[what for what, _ in MARKDOWN_SAYS])
def test_results_md_says(what, text):
    assert text in render("results.md", latency_sample_result())


def test_without_a_common_rate_there_is_no_cost_table_and_it_says_why():
    result = with_latency(cost_rate=None, cost_rate_source="",
                          steps=tuple(s for s in latency_sample_result().latency.steps
                                      if s.purpose.value != "cost"))
    markdown = render("results.md", result)
    assert "No common rate: no server held any rate" in markdown
    assert "| Context switches per request |" not in markdown
    rows = list(csv.DictReader(io.StringIO(render("results.csv", result))))
    assert {row["table"] for row in rows} == {"max", "step"}


def test_a_rate_set_by_cost_rate_says_so():
    assert ("The common rate is 15,000 req/s: set by COST_RATE." in
            render("results.md", with_latency(cost_rate=15000.0, cost_rate_source="COST_RATE")))


def test_the_csv_has_a_row_per_maximum_and_per_step_told_apart_by_table():
    rows = list(csv.DictReader(io.StringIO(render("results.csv", latency_sample_result()))))
    assert [row["table"] for row in rows] == ["max"] * 3 + ["step"] * 18 + ["cost"] * 6
    netty = rows[0]
    assert (netty["max_sustainable_rate"], netty["max_rounds"], netty["limited_by_tool"]) == (
        "20000.00", "20000.00;20000.00", "true")
    failed = next(row for row in rows if row["verdict"] == StepVerdict.FAILED.value)
    assert (failed["latency_p99_us"], failed["cpu_cores"], failed["achieved_rate"]) == ("", "", "")
    cost = rows[-1]
    assert (cost["role"], cost["cpu_us_per_request"], cost["limited_by"]) == (
        "reference", "11.00", "none")


def test_a_bench_still_writes_its_own_tables():
    assert "## Max sustainable rate" not in render("results.md", sample_result())
    assert render("results.csv", sample_result()).startswith(
        "framework,server,workload,workload_name,delay_ms,threads")


# (what changes, what the run line says)
PREAMBLES = [
    ({"rates": "auto"}, "oha 1.16.0 at fixed rates found by search (doubled while the target "
                        "held, then bisected between the highest that held and the lowest that "
                        "broke), against http://127.0.0.1:8080/"),
    ({"target_url": "http://10.0.0.9:9000/", "tool": None},
     "the load tool at fixed rates of 10000, 20000, 40000 req/s, against http://10.0.0.9:9000/"),
    ({"step_warmup_s": 0.0}, "10 s measured per step; 2 rounds, each server started"),
]


@pytest.mark.parametrize(("changes", "said"), PREAMBLES)
def test_the_run_line_names_the_rates_the_target_and_the_tool(changes, said):
    assert said in render("results.md", with_latency(**changes))


def test_a_run_without_recorded_settings_still_renders():
    result = replace(latency_sample_result(), settings=None)
    markdown = render("results.md", result)
    assert "against each server; target p99 ≤ 10 ms; httplab 0123456789ab\n" in markdown
    assert "| none | server 0.30 of 4 cores, oha 0.35 of 4, host busy 0.75 of 4 |" in markdown
