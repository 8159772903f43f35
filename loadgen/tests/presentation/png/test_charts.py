"""The throughput, latency-and-memory and CPU charts: the PNG they write, and the Figure
they draw it from (bars, their heights and value labels, and "failed" where a cell
failed)."""

from dataclasses import replace

import pytest
from matplotlib.colors import to_rgba
from matplotlib.container import BarContainer

from httplab.presentation.png.throughput import build_throughput_figure, chart_title, throughput_png
from httplab.presentation.png.latency_memory import build_latency_memory_figure, latency_memory_png
from httplab.presentation.views.figures import cell_figures
from httplab.presentation.views.points import at_connections, headline_connections
from httplab.model import Cell, CellStatus, Latency, WrkRun
from httplab.results.stats import cell_summary

from tests.sample_results import sample_result
from tests.support.png_charts import bars, center, png_size, texts, value_labels

MIB = 2**20


def headline_sample():
    """What publish passes to result1, result2 and the CPU chart: the sample's cells at its
    headline connection count, 500."""
    result = sample_result()
    return at_connections(result, headline_connections(result))


def all_failed(result):
    return replace(result, cells=tuple(
        Cell(c.server, c.threads, c.connections, CellStatus.FAILED, reason="never healthy")
        for c in result.cells))


def zero_request_run(threads: int) -> WrkRun:
    return WrkRun(duration_s=1.0, requests=0, bytes_read=0, requests_per_sec=0.0,
                  transfer_per_sec=0.0, latency=Latency(None, None, None),
                  threads=threads, connections=500)


def with_a_failed_cell_carrying_a_zero_request_run(result):
    """Undertow at 10 threads failed after wrk measured nothing: a run, but status FAILED."""
    return replace(result, cells=tuple(
        replace(c, runs=(zero_request_run(c.threads),))
        if (c.server, c.threads) == ("undertow", 10) else c for c in result.cells))


# --- image/result1.png: throughput -----------------------------------------------------


def test_chart_is_a_png_of_readable_size():
    data = throughput_png(headline_sample())
    width, height = png_size(data)
    assert 800 <= width <= 2000 and 400 <= height <= 1200
    assert 10_000 < len(data) < 1_000_000


def test_title_names_the_protocol():
    assert chart_title(sample_result()) == ("wrk Requests/sec, 500 connections, 10 s per run "
                                            "(higher is better)\nmedian of 3 runs, whiskers from "
                                            "min to max")


def test_throughput_has_one_bar_per_measured_cell_at_its_median():
    result = headline_sample()
    (axes,) = build_throughput_figure(result).axes
    servers = [label.get_text() for label in axes.get_xticklabels()]
    colour = {threads: to_rgba(f"C{position}")  # as the legend: one colour per thread setting
              for position, threads in enumerate(result.settings.threads)}
    expected = sorted((result.label(c.server), colour[c.threads],
                       pytest.approx(cell_summary(c).median))
                      for c in result.cells if c.status is CellStatus.OK)
    drawn = sorted((servers[round(center(bar))], bar.get_facecolor(), bar.get_height())
                   for bar in bars(axes))
    assert len(drawn) == 2 == len(expected)
    assert drawn == expected  # the right server's group, thread setting (colour) and median


def test_throughput_bars_are_labelled_with_their_median():
    (axes,) = build_throughput_figure(headline_sample()).axes
    labels = value_labels(axes)
    assert sorted(labels.values()) == ["69,297", "75,561"]  # medians 69296.64 and 75561.34
    assert labels == {round(center(bar), 6): f"{bar.get_height():,.0f}" for bar in bars(axes)}


def test_throughput_shows_failed_cells_as_text_not_bars():
    (axes,) = build_throughput_figure(headline_sample()).axes
    failed = texts(axes, "failed")
    assert len(failed) == 2  # undertow at 10 and 5 threads
    assert {round(t.get_position()[0]) for t in failed} == {1}  # undertow's slot
    assert all(round(center(bar)) == 0 for bar in bars(axes))


def test_throughput_of_all_failed_cells_has_no_bars_and_says_failed():
    result = all_failed(headline_sample())
    (axes,) = build_throughput_figure(result).axes
    assert bars(axes) == []
    assert len(texts(axes, "failed")) == len(result.cells) == 4
    assert value_labels(axes) == {}


def test_a_failed_cell_with_a_zero_request_run_is_failed_not_a_zero_bar():
    result = with_a_failed_cell_carrying_a_zero_request_run(headline_sample())
    (axes,) = build_throughput_figure(result).axes
    assert sorted(bar.get_height() for bar in bars(axes)) == [
        pytest.approx(69296.64), pytest.approx(75561.34)]
    assert len(texts(axes, "failed")) == 2


def test_a_missing_cell_is_not_applicable():
    result = headline_sample()
    result = replace(result, cells=result.cells[:-1])  # no undertow at 5 threads at all
    (axes,) = build_throughput_figure(result).axes
    assert (len(bars(axes)), len(texts(axes, "failed")), len(texts(axes, "n/a"))) == (2, 1, 1)


# --- image/result2.png: latency and memory -----------------------------------------------


def test_latency_and_memory_chart_is_a_png_of_readable_size():
    width, height = png_size(latency_memory_png(headline_sample()))
    assert 1000 <= width <= 2000 and 400 <= height <= 1200


def bars_by_percentile(axes) -> dict[str, list[tuple[int, float]]]:
    return {c.get_label(): [(round(center(bar)), bar.get_height()) for bar in c.patches]
            for c in axes.containers if isinstance(c, BarContainer)}


def test_latency_bars_are_the_measured_cells_percentiles_in_ms():
    result = headline_sample()
    latency, _ = build_latency_memory_figure(result).axes
    netty = cell_figures(result.cells[0])  # netty at 10 threads, the first setting
    assert bars_by_percentile(latency) == {
        "p50": [(0, pytest.approx(netty.latency_p50_us / 1000))],
        "p99": [(0, pytest.approx(netty.latency_p99_us / 1000))],
        "p99.9": [(0, pytest.approx(netty.latency_p999_us / 1000))]}
    assert latency.get_yscale() == "log"


def test_memory_bars_are_peak_mib_labelled_with_cpu_cores():
    result = headline_sample()
    _, memory = build_latency_memory_figure(result).axes
    (bar,) = bars(memory)
    assert (round(center(bar)), bar.get_height()) == (0, pytest.approx(310))  # the runs' peak
    assert value_labels(memory) == {0.0: "1.51 cores"}  # the runs' median CPU


def test_latency_and_memory_show_a_failed_server_as_text():
    latency, memory = build_latency_memory_figure(headline_sample()).axes
    for axes in (latency, memory):
        (failed,) = texts(axes, "failed")
        assert round(failed.get_position()[0]) == 1  # undertow's slot
        assert all(round(center(bar)) == 0 for bar in bars(axes))


def test_latency_and_memory_of_all_failed_cells_have_no_bars_and_say_failed():
    latency, memory = build_latency_memory_figure(all_failed(headline_sample())).axes
    for axes in (latency, memory):
        assert bars(axes) == []
        assert len(texts(axes, "failed")) == 2  # both servers at the first thread setting


def test_latency_and_memory_draw_a_failed_cell_with_a_run_as_failed():
    result = with_a_failed_cell_carrying_a_zero_request_run(headline_sample())
    latency, memory = build_latency_memory_figure(result).axes
    for axes in (latency, memory):
        assert {round(center(bar)) for bar in bars(axes)} == {0}
        assert len(texts(axes, "failed")) == 1


def test_second_chart_goes_beside_the_first():
    from pathlib import Path

    from httplab.presentation.views.charts import ChartKind, chart_path

    second = ChartKind.LATENCY_MEMORY
    assert chart_path(Path("image/result1.png"), second) == Path("image/result2.png")
    assert chart_path(Path("/tmp/out/chart.png"), second) == Path("/tmp/out/chart-2.png")


def _faster_undertow(result):
    """The sample with undertow measured too, faster than netty at 10 threads."""
    netty = next(c for c in result.cells if c.server == "netty" and c.threads == 10)
    fast = replace(netty, server="undertow",
                   runs=tuple(replace(run, requests_per_sec=run.requests_per_sec * 2)
                              for run in netty.runs))
    return replace(result, cells=(*result.cells[:2], fast, result.cells[3]))


def test_frameworks_are_ordered_fastest_first_and_unmeasured_last():
    from httplab.presentation.views.points import server_order

    assert server_order(headline_sample()) == ["netty", "undertow"]  # undertow failed
    assert server_order(_faster_undertow(headline_sample())) == ["undertow", "netty"]


def test_cells_not_limited_by_the_server_alone_are_hatched():
    """In the sample, Netty at 10 threads used its whole CPU ("server"); at 5 threads its
    CPU was not sampled ("unknown")."""
    result = headline_sample()
    axes = build_throughput_figure(result).axes[0]
    hatches = {round(bar.get_height(), 2): bar.get_hatch() for bar in bars(axes)}
    assert hatches == {69296.64: None, 75561.34: "//"}


def test_cpu_chart_has_one_bar_per_cell_with_a_cpu_figure_at_its_cost():
    from httplab.presentation.png.cpu import build_cpu_figure, cpu_label

    result = headline_sample()
    axes = build_cpu_figure(result).axes[0]
    netty10 = cell_figures(result.cells[0]).cpu_us_per_request
    assert [round(bar.get_height(), 3) for bar in bars(axes)] == [round(netty10, 3)]
    assert list(value_labels(axes).values()) == [cpu_label(netty10)]
    assert texts(axes, "not sampled") and len(texts(axes, "failed")) == 2


def test_cpu_chart_of_all_failed_cells_has_no_bars():
    from httplab.presentation.png.cpu import build_cpu_figure

    axes = build_cpu_figure(all_failed(headline_sample())).axes[0]
    assert bars(axes) == [] and len(texts(axes, "failed")) == 4


@pytest.mark.parametrize("image, expected", [("image/result1.png", "image/result-cpu.png"),
                                             ("/tmp/out/chart.png", "/tmp/out/chart-cpu.png")])
def test_the_cpu_chart_goes_beside_the_first(image, expected):
    from pathlib import Path

    from httplab.presentation.views.charts import ChartKind, chart_path

    assert chart_path(Path(image), ChartKind.CPU) == Path(expected)


# --- one connection count of a sweep: the headline ---------------------------------------


def _sweep_of_the_sample():
    """The sample measured at 16, 128 and 500 connections; the smaller counts at a tenth
    of the rate, so a chart drawing them would show other medians."""
    from httplab.model import CellStatus as Status

    sample = headline_sample()
    smaller = tuple(replace(c, connections=count,
                            runs=tuple(replace(r, requests_per_sec=r.requests_per_sec / 10,
                                               connections=count) for r in c.runs))
                    for count in (16, 128) for c in sample.cells)
    assert {c.status for c in smaller} == {Status.OK, Status.FAILED}
    return replace(sample, cells=smaller + sample.cells,
                   settings=replace(sample.settings, connections=(16, 128, 500)))


@pytest.mark.parametrize("counts, cells_at, expected", [
    ((16, 128, 500), (16, 128, 500), 500),
    ((500,), (500,), 500),
    ((16, 128, 500), (16, 128), 128),  # the largest measured, not the largest asked for
    ((16, 128), (), 128),  # nothing measured: the largest asked for
])
def test_the_headline_is_the_largest_connection_count_measured(counts, cells_at, expected):
    sample = sample_result()
    result = replace(sample, settings=replace(sample.settings, connections=counts),
                     cells=tuple(replace(sample.cells[0], connections=n) for n in cells_at))
    assert headline_connections(result) == expected


def test_no_headline_without_settings_or_cells():
    assert headline_connections(replace(sample_result(), settings=None, cells=())) is None


def test_at_connections_keeps_only_the_cells_at_that_count():
    sweep = _sweep_of_the_sample()
    assert at_connections(sweep, 500).cells == headline_sample().cells
    assert {c.connections for c in at_connections(sweep, 16).cells} == {16}
    assert len(at_connections(sweep, 16).cells) == 4


@pytest.mark.parametrize("threads, connections, expected_threads", [
    (10, 500, 10), (10, 8, 8), (5, 8, 5), (10, 7, None)])
def test_cell_at_caps_threads_at_the_connection_count(threads, connections, expected_threads):
    from httplab.presentation.views.points import cell_at

    base = sample_result().cells[0]
    result = replace(sample_result(), cells=(base, replace(base, threads=8, connections=8),
                                             replace(base, threads=5, connections=8)))
    cell = cell_at(result, "netty", threads, connections)
    assert (cell and cell.threads) == expected_threads
    assert cell is None or cell.connections == connections


def test_the_charts_of_a_sweep_draw_the_headline_cells_and_say_the_count(tmp_path):
    from httplab.presentation.png.cpu import build_cpu_figure
    from httplab.presentation.publish import write_charts

    sweep = _sweep_of_the_sample()
    headline = at_connections(sweep, headline_connections(sweep))
    (axes,) = build_throughput_figure(headline).axes
    assert sorted(round(bar.get_height(), 2) for bar in bars(axes)) == [69296.64, 75561.34]
    assert axes.get_title().startswith("wrk Requests/sec, 500 connections, 10 s per run")
    latency, memory = build_latency_memory_figure(headline).axes
    assert latency.get_title().endswith("10 threads, 500 connections")
    assert "500 connections" in build_cpu_figure(headline).axes[0].get_title()
    write_charts(sweep, tmp_path / "result1.png")
    assert (tmp_path / "result3.png").is_file()


def test_a_not_applicable_cell_draws_no_bound_it_never_had():
    from dataclasses import replace

    from httplab.model import CellStatus, Workload
    from httplab.presentation.png.throughput import server_bound
    from tests.sample_results import workloads_sample_result

    result = workloads_sample_result()
    blocking = Workload("blocking", 10)
    result = replace(result, cells=tuple(cell for cell in result.cells
                                         if cell.workload == blocking))
    server = result.cells[0].server
    assert server_bound(result, server) is not None
    never_run = replace(result, cells=tuple(
        replace(cell, status=CellStatus.NOT_APPLICABLE, runs=()) if cell.server == server
        else cell for cell in result.cells))
    assert server_bound(never_run, server) is None
