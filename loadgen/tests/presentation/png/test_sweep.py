"""image/result3.png, the concurrency sweep: the Figure's lines (medians over runs, gaps where
a cell failed), which markers are hollow, the error bars, and when publish draws it."""

import math
from dataclasses import replace
from pathlib import Path

import pytest
from matplotlib.container import ErrorbarContainer

from httplab.model import (BenchResult, Cell, CellStatus, HostInfo, Latency, ResourceUsage,
                           ServerRecord, Settings, WrkRun)
from httplab.presentation.png.sweep import (HOLLOW_MEANING, build_sweep_figure, sweep_png,
                                            sweep_title)
from httplab.presentation.views.points import shows_a_sweep
from httplab.presentation.publish import write_charts
from httplab.presentation.views.charts import ChartKind, chart_path
from httplab.results.results_json.version import FORMAT_VERSION

from tests.support.png_charts import png_size

NAN = math.nan
HOST = HostInfo(hostname="sweep-host", cpu_model="Test CPU", cores=2)

# CPU use on a 2-core host without cpusets (results/bottleneck.py, 90 % saturated):
SERVER_BOUND = ResourceUsage(cpu_cores=1.9, loadgen_cores=0.1, host_busy_cores=2.0)
SHARED_BOUND = ResourceUsage(cpu_cores=1.0, loadgen_cores=0.8, host_busy_cores=1.9)


def wrk_run(rps: float, p99_us: float, threads: int, connections: int) -> WrkRun:
    return WrkRun(duration_s=10.0, requests=int(rps * 10), bytes_read=int(rps * 1000),
                  requests_per_sec=rps, transfer_per_sec=rps * 100,
                  latency=Latency(1000.0, 500.0, 9000.0, percentiles_us=((99.0, p99_us),)),
                  threads=threads, connections=connections)


def measured_cell(server: str, threads: int, connections: int, rates: tuple[float, ...],
                  p99s_us: tuple[float, ...], usage: ResourceUsage | None = SERVER_BOUND) -> Cell:
    """An OK cell, one run per rate; usage None: CPU not sampled (the verdict "unknown")."""
    runs = tuple(wrk_run(rps, p99, threads, connections) for rps, p99 in zip(rates, p99s_us))
    resources = () if usage is None else (usage,) * len(runs)
    return Cell(server, threads, connections, CellStatus.OK, runs, resources=resources)


def failed_cell(server: str, threads: int, connections: int) -> Cell:
    return Cell(server, threads, connections, CellStatus.FAILED, reason="connection refused")


SERVERS = (ServerRecord("netty", "Netty", "Netty", "4.2", "event loops", "epoll"),
           ServerRecord("undertow", "Undertow", "Undertow", "2.3", "workers", "nio"),
           ServerRecord("nginx", "nginx", "nginx", "1.26", "auto", "epoll", role="reference"))

# At 4 threads (the first setting): netty is limited by the shared CPUs at 128; undertow's
# CPU was not sampled at 16 and it failed at 128. The 2-thread cells must not be drawn.
SWEEP_CELLS = (
    measured_cell("netty", 4, 16, (30_000, 34_000), (900, 1100)),
    measured_cell("netty", 4, 128, (50_000, 54_000), (4_000, 6_000), SHARED_BOUND),
    measured_cell("netty", 4, 500, (48_000, 52_000), (20_000, 30_000)),
    measured_cell("undertow", 4, 16, (20_000, 22_000), (1_500, 2_500), usage=None),
    failed_cell("undertow", 4, 128),
    measured_cell("undertow", 4, 500, (25_000, 27_000), (40_000, 60_000)),
    measured_cell("nginx", 4, 16, (60_000, 62_000), (500, 700)),
    measured_cell("nginx", 4, 128, (80_000, 84_000), (2_000, 3_000)),
    measured_cell("nginx", 4, 500, (79_000, 81_000), (9_000, 11_000)),
    measured_cell("netty", 2, 16, (1, 1), (1, 1)),
    measured_cell("netty", 2, 128, (1, 1), (1, 1)),
    measured_cell("netty", 2, 500, (1, 1), (1, 1)),
)


def sweep_result(cells: tuple[Cell, ...] = SWEEP_CELLS,
                 connections: tuple[int, ...] = (16, 128, 500), threads=(4, 2)) -> BenchResult:
    settings = Settings(("netty", "undertow", "nginx"), threads, connections, 10.0, "local",
                        repeat=2)
    return BenchResult(FORMAT_VERSION, "2026-12-01T10-00-00Z", settings, HOST, SERVERS, cells)


def single_count_result() -> BenchResult:
    return sweep_result(tuple(c for c in SWEEP_CELLS if c.connections == 500), (500,))


def drawn_lines(axes) -> dict[str, list[float]]:
    """The connecting lines (one per series) by label; NaN where the line has a gap."""
    return {line.get_label(): list(line.get_ydata()) for line in axes.get_lines()
            if not line.get_label().startswith("_")}


def markers(axes, kind: str) -> set[tuple[str, int]]:
    """(series, connections) of every filled or hollow marker."""
    return {(line.get_label()[1:].rsplit(": ", 1)[0], int(x))
            for line in axes.get_lines() if line.get_label().endswith(f": {kind}")
            for x in line.get_xdata()}


def same(values: list[float]) -> list:
    return [NAN if math.isnan(v) else pytest.approx(v) for v in values]


CEILING = "ceiling: nginx (reference server)"


def test_requests_per_sec_lines_are_medians_with_a_gap_where_a_cell_failed():
    rates, _ = build_sweep_figure(sweep_result()).axes
    lines = drawn_lines(rates)
    assert list(lines) == ["Netty", "Undertow", CEILING]  # fastest first, then the ceiling
    assert lines["Netty"] == same([32_000, 52_000, 50_000])
    assert lines["Undertow"][0] == pytest.approx(21_000)
    assert math.isnan(lines["Undertow"][1]) and lines["Undertow"][2] == pytest.approx(26_000)
    assert lines[CEILING] == same([61_000, 82_000, 80_000])


def test_p99_lines_are_median_milliseconds_on_log_axes():
    _, latency = build_sweep_figure(sweep_result()).axes
    lines = drawn_lines(latency)
    assert lines["Netty"] == same([1.0, 5.0, 25.0])
    assert math.isnan(lines["Undertow"][1]) and lines["Undertow"][2] == pytest.approx(50.0)
    assert latency.get_yscale() == "log"


def test_the_ceiling_is_dashed_grey_and_frameworks_are_solid():
    rates, _ = build_sweep_figure(sweep_result()).axes
    style = {line.get_label(): (line.get_linestyle(), line.get_color())
             for line in rates.get_lines() if not line.get_label().startswith("_")}
    assert style[CEILING] == ("--", "gray")
    assert style["Netty"] == ("-", "C0") and style["Undertow"] == ("-", "C1")


def test_hollow_markers_are_exactly_the_points_not_limited_by_the_server():
    for axes in build_sweep_figure(sweep_result()).axes:
        assert markers(axes, "hollow") == {("Netty", 128), ("Undertow", 16)}
        assert markers(axes, "filled") == {("Netty", 16), ("Netty", 500), ("Undertow", 500),
                                           (CEILING, 16), (CEILING, 128), (CEILING, 500)}
    hollow = [line for line in build_sweep_figure(sweep_result()).axes[0].get_lines()
              if line.get_label().endswith(": hollow")]
    assert {line.get_markerfacecolor() for line in hollow} == {"none"}


def test_the_legend_explains_hollow_points():
    rates, _ = build_sweep_figure(sweep_result()).axes
    labels = [text.get_text() for text in rates.get_legend().get_texts()]
    assert labels == ["Netty", "Undertow", CEILING, HOLLOW_MEANING]


def error_bars(axes) -> list[tuple[float, float, float]]:
    """(x, low, high) of every error bar."""
    return sorted((segment[0][0], segment[0][1], segment[1][1])
                  for container in axes.containers if isinstance(container, ErrorbarContainer)
                  for segment in container.lines[2][0].get_segments())


def test_repeated_cells_have_error_bars_from_the_slowest_to_the_fastest_run():
    rates, latency = build_sweep_figure(sweep_result()).axes
    bars = error_bars(rates)
    assert len(bars) == 8  # every measured point at 4 threads; none where undertow failed
    assert (128, 50_000, 54_000) in bars and (500, 25_000, 27_000) in bars
    assert error_bars(latency) == []


def test_single_runs_have_no_error_bars():
    once = tuple(replace(c, runs=c.runs[:1], resources=c.resources[:1]) for c in SWEEP_CELLS)
    rates, _ = build_sweep_figure(sweep_result(once)).axes
    assert error_bars(rates) == []
    assert drawn_lines(rates)["Netty"] == same([30_000, 50_000, 48_000])


def test_connections_are_a_shared_log_axis_ticked_at_the_counts_measured():
    rates, latency = build_sweep_figure(sweep_result()).axes
    assert rates.get_xscale() == latency.get_xscale() == "log"
    assert list(latency.get_xticks()) == [16, 128, 500]
    assert [t.get_text() for t in latency.get_xticklabels()] == ["16", "128", "500"]
    assert rates.get_shared_x_axes().joined(rates, latency)


def test_fewer_connections_than_threads_take_the_cell_with_one_thread_per_connection():
    cells = (measured_cell("netty", 16, 16, (10_000,), (800,)),
             measured_cell("netty", 32, 128, (20_000,), (900,)))
    result = sweep_result(cells, (16, 128), threads=(32,))
    rates, _ = build_sweep_figure(result).axes
    assert drawn_lines(rates)["Netty"] == same([10_000, 20_000])
    assert "32 threads (at most one per connection)" in sweep_title(result)


def test_title_and_caption_name_threads_duration_and_host():
    result = sweep_result()
    figure = build_sweep_figure(result)
    assert figure.axes[0].get_title() == sweep_title(result) == (
        "wrk Requests/sec and p99 latency by connections, 4 threads, 10 s per run\n"
        "median of 2 runs, whiskers from min to max")
    assert any(HOST.describe() in text.get_text() for text in figure.texts)


def test_a_sweep_is_more_than_one_connection_count():
    assert shows_a_sweep(sweep_result())
    assert not shows_a_sweep(single_count_result())


def test_the_sweep_chart_is_a_png():
    width, height = png_size(sweep_png(sweep_result()))
    assert 800 <= width <= 2000 and 600 <= height <= 1200


def test_publish_draws_the_sweep_chart_only_for_a_sweep(tmp_path):
    write_charts(sweep_result(), tmp_path / "sweep" / "result1.png")
    write_charts(single_count_result(), tmp_path / "single" / "result1.png")
    assert sorted(p.name for p in (tmp_path / "sweep").iterdir()) == [
        "result-cpu.png", "result1.png", "result2.png", "result3.png"]
    assert sorted(p.name for p in (tmp_path / "single").iterdir()) == [
        "result-cpu.png", "result1.png", "result2.png"]


def test_a_run_without_a_sweep_removes_an_older_sweep_chart(tmp_path):
    write_charts(sweep_result(), tmp_path / "result1.png")
    assert (tmp_path / "result3.png").is_file()
    write_charts(single_count_result(), tmp_path / "result1.png")
    assert not (tmp_path / "result3.png").exists(), "every chart beside result1 is of one run"


@pytest.mark.parametrize("image, sweep, fairness", [
    ("image/result1.png", "image/result3.png", "image/result4.png"),
    ("/tmp/out/chart.png", "/tmp/out/chart-3.png", "/tmp/out/chart-4.png")])
def test_the_sweep_and_fairness_charts_go_beside_the_first(image, sweep, fairness):
    assert chart_path(Path(image), ChartKind.SWEEP) == Path(sweep)
    assert chart_path(Path(image), ChartKind.FAIRNESS) == Path(fairness)
