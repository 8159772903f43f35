"""What a make latency run with PROFILE=1 shows of its steps' profiles: results.md's "Where
the time went" (a row per profiled step, the itimer note, the marked and failed steps, the
reference not profiled) and results.csv's profile columns; a latency run without profiles
renders as before (tests/fixtures/golden/latency)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import pytest

from httplab.model import RunProfile, StepPurpose, Workload
from httplab.presentation.exporters import all_exporters
from httplab.presentation.csv.latency import LATENCY_CSV_HEADER
from httplab.presentation.markdown.latency_profile import (STEP_PROFILE_INTRO,
                                                           profiled_steps_in_order, step_name,
                                                           step_profile_section)
from httplab.presentation.csv.profile import profile_header
from httplab.presentation.markdown.profile import ITIMER_NOTE
from httplab.presentation.views.profile_figures import (by_round, carries_profile, cell_check,
                                                        layer_order, profiled_steps)
from httplab.results.profile_layers import LAYERS
from httplab.results.results_json.read import result_from_dict

from tests.latency_profile_sample import (NETTY, NETTY_MISMATCH, UNDERTOW, UNDERTOW_FAILURE,
                                          latency_profile_sample_result)
from tests.latency_sample import latency_sample_result
from tests.support.update_golden import GOLDEN

CASE = GOLDEN / "latency-profiles"


def render(name: str, result) -> str:
    return next(e for e in all_exporters() if e.file_name == name).render(result)


def _table_rows(markdown: str) -> list[list[str]]:
    """The cells of the "Where the time went" table's rows, header and rule left out."""
    section = markdown.split("## Where the time went", 1)[1]
    table = section.split("\n\n")[2].splitlines()
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in table[2:]]


def _csv_rows(result) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(render("results.csv", result))))


@pytest.mark.parametrize("exporter", all_exporters(), ids=lambda e: e.file_name)
def test_a_latency_run_with_profiles_matches_its_golden_file(exporter):
    golden = CASE / exporter.file_name
    assert golden.is_file(), f"no golden file {golden}: run `make golden` and review the diff"
    assert exporter.render(latency_profile_sample_result()) == golden.read_text(), (
        f"{exporter.file_name} differs from {golden}; if intended, run `make golden`")


def test_its_results_json_reads_back_with_every_steps_profile():
    result = latency_profile_sample_result()
    assert result_from_dict(json.loads(render("results.json", result))) == result


def test_a_latency_run_without_profiles_has_neither_the_section_nor_the_columns():
    result = latency_sample_result()
    assert step_profile_section(result) == []
    assert "Where the time went" not in render("results.md", result)
    assert tuple(_csv_rows(result)[0]) == LATENCY_CSV_HEADER


def test_the_section_has_a_row_per_profiled_step_in_the_tables_order():
    result = latency_profile_sample_result()
    rows = _table_rows(render("results.md", result))
    assert [(row[0], row[1], row[3]) for row in rows] == [
        ("Netty (profiled)", "list", "10,000"), ("Netty (profiled)", "list", "20,000"),
        ("Netty (profiled)", "cost", "10,000"),
        ("Undertow (200 workers) (profiled)", "list", "10,000"),
        ("Undertow (200 workers) (profiled)", "list", "20,000"),
        ("Undertow (200 workers) (profiled)", "cost", "10,000")]
    assert not any(row[0].startswith("nginx") for row in rows)


@pytest.mark.parametrize("position, event, check, link", [
    (0, "cpu", "ok", "[flame graph](raw/netty+profiled-q10000-r1.flame.html)"),
    (1, "cpu", "marked", "[flame graph](raw/netty+profiled-q20000-r1.flame.html)"),
    (3, "itimer †", "ok", "[flame graph](raw/undertow+profiled-q10000-r1.flame.html)"),
    (5, "itimer †", "failed", "—"),
])
def test_a_steps_row_says_its_event_check_and_flame_graph(position, event, check, link):
    row = _table_rows(render("results.md", latency_profile_sample_result()))[position]
    assert (row[4], row[-2], row[-1]) == (event, check, link)


def test_a_steps_row_gives_each_layers_share_of_its_samples():
    netty_first = _table_rows(render("results.md", latency_profile_sample_result()))[0]
    shares = dict(zip(LAYERS, netty_first[6:6 + len(LAYERS)]))
    assert netty_first[5] == "620"
    assert (shares["kernel"], shares["Netty"], shares["framework"]) == ("41.9%", "26.9%", "0.0%")


def test_the_notes_say_itimer_the_marked_and_failed_steps_and_the_reference():
    markdown = render("results.md", latency_profile_sample_result())
    assert STEP_PROFILE_INTRO in markdown
    assert markdown.count(ITIMER_NOTE) == 1
    assert (f"- Netty (profiled), list step at 20,000 req/s, round 1, marked: {NETTY_MISMATCH}"
            in markdown)
    assert (f"- Undertow (200 workers) (profiled), cost step at 10,000 req/s, round 1, "
            f"failed: {UNDERTOW_FAILURE}") in markdown
    assert "nginx: not a JVM, not profiled." in markdown


def test_the_section_comes_after_the_cost_table_and_before_the_servers():
    markdown = render("results.md", latency_profile_sample_result())
    order = [markdown.index(text) for text in ("## The same load", "## Where the time went",
                                               "Servers as run:")]
    assert order == sorted(order)


def test_steps_of_several_workloads_gain_a_workload_column_and_name():
    result = latency_profile_sample_result()
    json_workload = Workload("json")
    steps = tuple(replace(step, workload=json_workload) if step.offered_rate == 20000 else step
                  for step in result.latency.steps)
    result = replace(result, latency=replace(result.latency, steps=steps))
    section = "\n".join(step_profile_section(result))
    assert "| Framework | Workload | Purpose | Round |" in section
    assert "| Netty (profiled) | json | list | 1 | 20,000 |" in section
    marked = next(step for step in steps if step.profile and step.profile.mismatch)
    assert step_name(result, marked) == "Netty (profiled) json, list step at 20,000 req/s, round 1"


def test_the_csv_ends_every_row_with_the_profile_columns():
    result = latency_profile_sample_result()
    rows = _csv_rows(result)
    assert tuple(rows[0]) == LATENCY_CSV_HEADER + profile_header(LAYERS)
    by_key = {(row["table"], row["server"], row["offered_rate"]): row for row in rows}
    marked = by_key[("step", NETTY, "20000.00")]
    assert (marked["profile_event"], marked["profile_samples"], marked["profile_check"],
            marked["profile_share_kernel"]) == ("cpu", "900", "marked", "0.4200")
    assert marked["profile_flame_graphs"] == "raw/netty+profiled-q20000-r1.flame.html"
    failed = by_key[("cost", UNDERTOW, "10000.00")]
    assert (failed["profile_event"], failed["profile_check"], failed["profile_share_jdk"],
            failed["profile_flame_graphs"]) == ("itimer", "failed", "", "")
    for row in rows:
        if row["table"] == "max" or row["server"] == "nginx":
            assert all(row[column] == "" for column in profile_header(LAYERS)), row


# --- the figures of a step (presentation/views/profile_figures.py) --------------------


def test_a_step_is_one_run_its_round_and_its_profile():
    step = latency_profile_sample_result().latency.steps[0]
    assert by_round(step) == [(1, step.profile)]
    assert carries_profile(step) and not carries_profile(replace(step, profile=None))


def test_the_profiled_steps_are_those_with_a_profile_or_a_failure():
    result = latency_profile_sample_result()
    assert {step.server for step in profiled_steps(result)} == {NETTY, UNDERTOW}
    assert len(profiled_steps_in_order(result)) == len(profiled_steps(result)) == 6
    assert profiled_steps(latency_sample_result()) == ()


def test_a_layer_a_step_names_beyond_the_known_ones_is_shown_last():
    result = latency_profile_sample_result()
    first = result.latency.steps[0]
    odd = replace(first, profile=replace(first.profile,
                                         layers=first.profile.layers + (("native", 5),)))
    steps = (odd, *result.latency.steps[1:])
    assert layer_order(replace(result, latency=replace(result.latency, steps=steps))) == (
        *LAYERS, "native")


@pytest.mark.parametrize("profile, check", [
    (RunProfile(event="cpu", interval=5_000_000, samples=200, layers=(("kernel", 200),),
                measured_cpu_seconds=1.0), "ok"),
    (RunProfile(event="cpu", interval=5_000_000, samples=10, layers=(("kernel", 10),),
                measured_cpu_seconds=0.05), "not checked"),  # too light to check
    (RunProfile(event="wall", interval=5_000_000, samples=10, layers=(("kernel", 10),)),
     "not checked"),
    (RunProfile(event="cpu", interval=5_000_000, failure="did not start"), "failed"),
])
def test_a_steps_check_is_its_one_profiles(profile, check):
    step = replace(latency_profile_sample_result().latency.steps[0], profile=profile,
                   purpose=StepPurpose.SEARCH)
    assert cell_check(step) == check
