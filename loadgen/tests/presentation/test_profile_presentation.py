"""What a user reads of a run with profiles (PROFILE=1, PROFILE=0,1): results.md's "Where the
time went" (samples and layer shares per profiled cell, the check, the flame graphs, the
itimer note once, the marked and failed runs' sentences, the reference not profiled), the
hottest frames, the profiler's overhead, the CSV's profile columns and result-profile.png.
A run without profiles renders as before: the other golden files."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from httplab.model import Cell, CellStatus, HotFrame, RunProfile, Workload
from httplab.presentation.exporters import all_exporters
from httplab.presentation.csv.results import HEADER
from httplab.presentation.csv.profile import column_name, profile_header
from httplab.presentation.markdown.profile import (COST_INTRO, HOT_INTRO, ITIMER_NOTE,
                                                   PROFILE_INTRO, code_span)
from httplab.presentation.markdown.overhead import OVERHEAD_INTRO
from httplab.presentation.views.profile_figures import (cell_check, cell_samples, has_profiles,
                                                        hottest_frames, layer_order, layer_shares,
                                                        profiled_cells, run_check, run_findings)
from httplab.presentation.views.profile_overhead import overheads, unprofiled_key
from httplab.presentation.publish import write_charts
from httplab.presentation.views.charts import ChartKind, chart_path
from httplab.results.profile_layers import LAYERS

from tests.profile_sample import (ARMERIA_MISMATCH, INTERVAL_NS, UNDERTOW_FAILURE,
                                  profile_sample_result)
from tests.profile_sample import _cell as sample_cell, _profile as profile_of_shares
from tests.sample_results import sample_result, workloads_sample_result
from tests.support.update_golden import GOLDEN

CASE = GOLDEN / "profiles"
# The JSON is results/results_json/'s: its golden file is compared with the others' tests.
TEXT_EXPORTERS = [e for e in all_exporters() if e.file_name != "results.json"]


def render(name: str, result) -> str:
    return next(e for e in all_exporters() if e.file_name == name).render(result)


def _cell(result, server):
    return next(cell for cell in result.cells if cell.server == server)


@pytest.mark.parametrize("exporter", TEXT_EXPORTERS, ids=lambda e: e.file_name)
def test_a_run_with_profiles_matches_its_golden_file(exporter):
    golden = CASE / exporter.file_name
    assert golden.is_file(), f"no golden file {golden}: run `make golden` and review the diff"
    assert exporter.render(profile_sample_result()) == golden.read_text(), (
        f"{exporter.file_name} differs from {golden}; if intended, run `make golden`")


# --- the figures (presentation/views/profile_figures.py) -----------------------------


def _profile(layers=(("kernel", 60), ("JDK", 40)), **fields) -> RunProfile:
    return RunProfile(**{"event": "cpu", "interval": INTERVAL_NS,
                         "samples": sum(n for _, n in layers), "layers": layers,
                         "measured_cpu_seconds": 0.5, **fields})


@pytest.mark.parametrize("profile, check", [
    (None, "no profile"),
    (_profile(), "ok"),
    (_profile(mismatch="lost samples"), "marked"),
    (_profile(failure="did not start", layers=()), "failed"),
    (_profile(event="wall"), "not checked"),
    (_profile(measured_cpu_seconds=None), "not checked"),
])
def test_each_runs_check_in_a_word(profile, check):
    assert run_check(profile) == check


def _two_runs(*profiles) -> Cell:
    return Cell("netty+profiled", 5, 500, CellStatus.OK, profile_sample_result().cells[0].runs,
                rounds=(1, 2), profiles=profiles)


@pytest.mark.parametrize("profiles, check", [
    ((_profile(), _profile()), "ok"),
    ((_profile(mismatch="m"), _profile(mismatch="m")), "marked"),
    ((_profile(), _profile(failure="f", layers=())), "run 1 ok, run 2 failed"),
    ((_profile(),), "run 1 ok, run 2 no profile"),  # the second run has no profile at all
])
def test_a_cells_check_is_one_word_when_its_runs_agree(profiles, check):
    assert cell_check(_two_runs(*profiles)) == check


def test_samples_and_layer_shares_sum_over_the_runs_that_have_samples():
    cell = _two_runs(_profile((("kernel", 60), ("JDK", 40))),
                     _profile((("kernel", 20), ("Netty", 80))),)
    assert cell_samples(cell) == 200
    assert layer_shares(cell, ("kernel", "JDK", "Netty", "GC")) == (0.4, 0.2, 0.4, 0.0)
    failed = _two_runs(_profile(), _profile(failure="did not stop", layers=()))
    assert cell_samples(failed) == 100
    assert layer_shares(_two_runs(_profile(failure="f", layers=())), ("kernel",)) == (None,)


def test_the_layers_order_is_the_results_then_any_other_a_profile_names():
    result = profile_sample_result()
    assert layer_order(result) == LAYERS
    odd = replace(result.cells[3], profiles=(_profile((("kernel", 1), ("native", 2))),))
    assert layer_order(replace(result, cells=(odd,))) == LAYERS + ("native",)


def test_the_hottest_frames_sum_each_runs_own_ten_and_keep_ten():
    frames = lambda *pairs: tuple(HotFrame(name, "Netty", n) for name, n in pairs)
    first = _profile(hot_frames=frames(*((f"f{i:02}", 20 - i) for i in range(10))))
    second = _profile(hot_frames=frames(("f09", 30), ("g", 25), ("f00", 1)))
    hottest = hottest_frames(_two_runs(first, second))
    assert [(hot.frame, hot.samples) for hot in hottest[:3]] == [("f09", 41), ("g", 25),
                                                                  ("f00", 21)]
    assert len(hottest) == 10 and "f08" not in [hot.frame for hot in hottest]


def test_findings_name_each_marked_or_failed_run_by_its_round():
    armeria = _cell(profile_sample_result(), "armeria+profiled")
    undertow = _cell(profile_sample_result(), "undertow+profiled")
    assert [(f.round_number, f.status, f.text) for f in run_findings(armeria)] == [
        (2, "marked", ARMERIA_MISMATCH)]
    assert [(f.round_number, f.status, f.text) for f in run_findings(undertow)] == [
        (2, "failed", UNDERTOW_FAILURE)]


def test_the_profiled_cells_are_the_profiled_servers():
    result = profile_sample_result()
    assert [cell.server for cell in profiled_cells(result)] == [
        "netty+profiled", "armeria+profiled", "undertow+profiled"]
    assert has_profiles(result) and not has_profiles(sample_result())


# --- results.md --------------------------------------------------------------------------


def _section(markdown: str) -> str:
    return markdown.split(PROFILE_INTRO, 1)[1].split("Servers as run:", 1)[0]


def test_where_the_time_went_has_a_row_per_profiled_cell_in_the_layers_order():
    section = _section(render("results.md", profile_sample_result()))
    assert ("| Framework | Threads | Connections | Event | Samples | kernel | JDK | Netty | "
            "framework | handler | GC | JIT | other | Check | Flame graphs |") in section
    assert ("| Netty (profiled) | 5 | 500 | cpu | 3783 | 45.0% | 15.0% | 25.0% | 0.0% | 3.0% "
            "| 2.0% | 6.0% | 4.1% | ok | [run 1](raw/netty+profiled-t5-c500-r1.flame.html), "
            "[run 2](raw/netty+profiled-t5-c500-r2.flame.html) |") in section
    table = section.split(HOT_INTRO)[0]
    assert "\n| Netty |" not in table and "nginx (ceiling" not in table  # unprofiled: not here


def test_each_layers_cost_per_request_is_its_share_of_the_cells_cpu_per_request():
    """10,000 req/s on 0.1 cores is 10 µs a request: half in kernel, half in Netty."""
    halves = (50, 0, 50, 0, 0, 0, 0, 0)
    profiles = tuple(profile_of_shares(f"netty+profiled-r{n}", "cpu", halves, (), 0.1, 1000)
                     for n in (1, 2))
    cell = sample_cell("netty+profiled", (10_000.0, 10_000.0), (0.1, 0.1), profiles)
    result = replace(profile_sample_result(), cells=(cell,))
    section = render("results.md", result).split(COST_INTRO)[1].split(HOT_INTRO)[0]
    assert ("| Netty (profiled) | 5 | 500 | 5.0 | 0.0 | 5.0 | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 "
            "| 10.0 |") in section


def test_itimer_is_noted_once_and_the_marked_and_failed_runs_say_why():
    section = _section(render("results.md", profile_sample_result()))
    assert "| itimer † | 1921 |" in section and section.count(ITIMER_NOTE) == 1
    assert "| run 1 ok, run 2 marked |" in section
    assert (f"- Armeria (16 workers) (profiled) t5 c500, run 2 marked: {ARMERIA_MISMATCH}"
            in section)
    assert (f"- Undertow (200 workers) (profiled) t5 c500, run 2 failed: {UNDERTOW_FAILURE}"
            in section)
    assert "\nnginx: not a JVM, not profiled.\n" in section


def test_without_itimer_there_is_no_note():
    result = profile_sample_result()
    result = replace(result, cells=tuple(c for c in result.cells
                                         if c.server != "undertow+profiled"))
    assert "†" not in render("results.md", result)


def test_the_hottest_frames_are_whole_code_spans_with_layer_and_share():
    section = _section(render("results.md", profile_sample_result()))
    hot = section.split(HOT_INTRO, 1)[1]
    assert hot.count("| Frame | Layer | Self samples | Share |") == 3
    assert ("| `io/undertow/server/protocol/http/HttpReadListener.handleEventWithNoRunningRequest`"
            " | framework | 67 | 3.5% |") in hot
    assert "\nArmeria (16 workers) (profiled) t5 c500:\n" in hot


@pytest.mark.parametrize("frame, span", [
    ("io/netty/Foo.bar", "`io/netty/Foo.bar`"),
    ("odd`name", "`` odd`name ``"),
    ("two``ticks", "``` two``ticks ```"),
])
def test_a_frame_is_one_code_span_whatever_it_holds(frame, span):
    assert code_span(frame) == span


def test_several_workloads_add_a_workload_column_and_one_run_links_its_flame_graph():
    result = profile_sample_result()
    netty = _cell(result, "netty+profiled")
    json_cell = replace(netty, workload=Workload("json"), runs=netty.runs[:1],
                        profiles=netty.profiles[:1], rounds=())
    result = replace(result, cells=result.cells + (json_cell,))
    section = _section(render("results.md", result))
    assert "| Framework | Workload | Threads | Connections | Event |" in section
    assert ("| Netty (profiled) | json | 5 | 500 | cpu | 1901 |" in section
            and "| [flame graph](raw/netty+profiled-t5-c500-r1.flame.html) |" in section)
    assert "\nNetty (profiled) json t5 c500:\n" in section


def test_a_failed_cell_of_a_profiled_server_shows_its_failure():
    result = profile_sample_result()
    failed = Cell("armeria+profiled", 5, 500, CellStatus.FAILED, reason="never healthy")
    result = replace(result, cells=tuple(failed if c.server == "armeria+profiled" else c
                                         for c in result.cells))
    assert ("| Armeria (16 workers) (profiled) | 5 | 500 | — | — | — | — | — | — | — | — | — "
            "| — | failed: never healthy (server output: raw/armeria+profiled.log) | — |"
            in render("results.md", result))


def test_a_run_without_profiles_has_no_profile_sections():
    for result in (sample_result(), workloads_sample_result()):
        markdown = render("results.md", result)
        assert PROFILE_INTRO not in markdown and OVERHEAD_INTRO not in markdown


# --- the overhead (PROFILE=0,1) ----------------------------------------------------------


def test_the_overhead_pairs_each_profiled_cell_with_its_framework_unprofiled():
    rows = overheads(profile_sample_result())
    assert [(r.without.server, r.with_profiler.server) for r in rows] == [
        ("netty", "netty+profiled"), ("armeria", "armeria+profiled"),
        ("undertow", "undertow+profiled")]
    netty = rows[0]
    assert (netty.rate_without, netty.rate_with) == (69950.0, 66800.0)
    assert netty.rate_ratio == pytest.approx(66800 / 69950, rel=1e-3)
    assert unprofiled_key("armeria@default+profiled") == "armeria@default"


def test_the_overhead_table_shows_medians_ratio_and_cpu_per_request():
    markdown = render("results.md", profile_sample_result())
    section = markdown.split(OVERHEAD_INTRO, 1)[1]
    assert ("| Framework | Threads | Connections | Requests/sec without | Requests/sec with | "
            "With ÷ without | CPU per request without | CPU per request with |") in section
    assert "| Netty | 5 | 500 | 69950.00 | 66800.00 | 0.955× | 13.80us | 14.60us |" in section


def test_profile_1_alone_has_no_overhead_table():
    result = profile_sample_result()
    result = replace(result, cells=tuple(c for c in result.cells
                                         if c.server.endswith("+profiled") or c.server == "nginx"))
    markdown = render("results.md", result)
    assert PROFILE_INTRO in markdown and OVERHEAD_INTRO not in markdown


# --- results.csv -------------------------------------------------------------------------


def test_csv_rows_end_with_the_profile_columns():
    rows = list(csv.DictReader(io.StringIO(render("results.csv", profile_sample_result()))))
    assert list(rows[0])[len(HEADER):] == list(profile_header(LAYERS))
    assert [column_name(layer) for layer in LAYERS] == [
        "kernel", "jdk", "netty", "framework", "handler", "gc", "jit", "other"]
    netty, armeria, undertow = rows[3:6]
    assert {key: netty[key] for key in ("profile_event", "profile_samples",
                                        "profile_share_kernel", "profile_share_netty",
                                        "profile_check")} == {
        "profile_event": "cpu", "profile_samples": "3783", "profile_share_kernel": "0.4496",
        "profile_share_netty": "0.2498", "profile_check": "ok"}
    assert armeria["profile_check"] == "run 1 ok, run 2 marked"
    assert (undertow["profile_event"], undertow["profile_flame_graphs"]) == (
        "itimer", "raw/undertow+profiled-t5-c500-r1.flame.html")
    assert all(value == "" for key, value in rows[0].items() if key.startswith("profile_"))


def test_a_csv_without_profiles_has_no_profile_columns():
    assert "profile_" not in render("results.csv", sample_result()).splitlines()[0]


# --- the chart beside the others ---------------------------------------------------------


def test_profiles_draw_result_profile_png_and_a_run_without_removes_it(tmp_path):
    image = tmp_path / "result1.png"
    assert chart_path(image, ChartKind.PROFILE) == tmp_path / "result-profile.png"
    assert chart_path(tmp_path / "run.png", ChartKind.PROFILE) == tmp_path / "run-profile.png"
    write_charts(profile_sample_result(), image)
    assert (tmp_path / "result-profile.png").is_file()
    write_charts(sample_result(), image)
    assert not (tmp_path / "result-profile.png").exists()


def test_a_run_of_several_workloads_draws_one_profile_chart_of_them_all(tmp_path):
    result = profile_sample_result()
    netty = _cell(result, "netty+profiled")
    result = replace(result, cells=result.cells + (replace(netty, workload=Workload("json")),))
    write_charts(result, tmp_path / "result1.png")
    assert sorted(p.name for p in tmp_path.glob("*profile*")) == ["result-profile.png"]
