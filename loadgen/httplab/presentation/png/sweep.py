"""image/result3.png: a concurrency sweep. Requests/sec above and p99 latency below, over the
connection counts measured (log scale), one line per framework at the first thread setting,
and the ceiling (the reference server) dashed. Drawn only when a run swept more than one
count.

A point is hollow when its verdict (results/bottleneck.py) is not "server": the figure then
understates the server or its limit is unknown. A failed cell leaves a gap in its line."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import NullLocator, StrMethodFormatter

from httplab.model import BenchResult
from httplab.presentation.png.kit import (CEILING_COLOR, GRID_ALPHA, LEGEND_SIZE, LIMITED_ELSEWHERE,
                                          TITLE_SIZE, duration_text, finish_figure, new_figure,
                                          png_bytes, repeats_text, series_color, workload_text)
from httplab.presentation.views.points import (cell_at, connection_counts, measured,
                                               reference_servers, server_order, thread_settings)
from httplab.presentation.views.sweep import SweepPoint, sweep_point

TALL_FIGURE_SIZE_IN = (10, 8)
HOLLOW_MEANING = f"hollow: {LIMITED_ELSEWHERE}"


@dataclass(frozen=True)
class Series:
    label: str
    color: str
    linestyle: str
    points: tuple[SweepPoint | None, ...]  # one per connection count; None: not measured


def _points(result: BenchResult, server: str, threads: int) -> tuple[SweepPoint | None, ...]:
    cells = (cell_at(result, server, threads, count) for count in connection_counts(result))
    return tuple(sweep_point(cell, result) if measured(cell) else None for cell in cells)


def sweep_series(result: BenchResult) -> list[Series]:
    """The frameworks, fastest first, then the reference when it was measured."""
    threads = thread_settings(result)[0]
    series = []
    for index, server in enumerate(server_order(result)):
        points = _points(result, server, threads)
        unmeasured = "" if any(points) else " (no measured point)"
        series.append(Series(result.label(server) + unmeasured, series_color(index), "-",
                             points))
    for server in reference_servers(result):
        points = _points(result, server, threads)
        if any(points):
            series.append(Series(f"ceiling: {result.label(server)} (reference server)",
                                 CEILING_COLOR, "--", points))
    return series


Value = Callable[[SweepPoint], "float | None"]


def _value_or_gap(point: SweepPoint | None, value: Value) -> float:
    known = None if point is None else value(point)
    return math.nan if known is None else known  # matplotlib breaks a line at NaN


def _draw_series(axes, counts: list[int], series: Series, value: Value) -> None:
    """The line, then its filled and its hollow markers (labels starting with "_" stay out
    of the legend)."""
    ys = [_value_or_gap(point, value) for point in series.points]
    axes.plot(counts, ys, color=series.color, linestyle=series.linestyle, label=series.label)
    for filled in (True, False):
        chosen = [(x, y) for x, y, point in zip(counts, ys, series.points)
                  if point is not None and point.server_limited is filled and not math.isnan(y)]
        axes.plot([x for x, _ in chosen], [y for _, y in chosen], linestyle="none",
                  marker="o", color=series.color,
                  markerfacecolor=series.color if filled else "none",
                  label=f"_{series.label}: {'filled' if filled else 'hollow'}")


def _draw_spread(axes, counts: list[int], series: Series) -> None:
    """Bars from the fastest to the slowest run, where a cell was measured more than once."""
    repeated = [(x, point.rate) for x, point in zip(counts, series.points)
                if point is not None and point.rate.n > 1]
    if repeated:
        axes.errorbar([x for x, _ in repeated], [rate.median for _, rate in repeated],
                      yerr=[[rate.median - rate.minimum for _, rate in repeated],
                            [rate.maximum - rate.median for _, rate in repeated]],
                      fmt="none", ecolor=series.color, elinewidth=1, capsize=3)


def _legend(series: list[Series]) -> list[Line2D]:
    handles = [Line2D([], [], color=one.color, linestyle=one.linestyle, marker="o",
                      label=one.label) for one in series]
    return handles + [Line2D([], [], color="black", linestyle="none", marker="o",
                             markerfacecolor="none", label=HOLLOW_MEANING)]


def sweep_title(result: BenchResult) -> str:
    threads = thread_settings(result)[0]
    capped = " (at most one per connection)" if connection_counts(result)[0] < threads else ""
    return (f"wrk Requests/sec and p99 latency by connections, {threads} threads{capped}"
            f"{workload_text(result)}{duration_text(result)}{repeats_text(result)}")


def _set_connection_axis(axes, counts: list[int]) -> None:
    axes.set_xscale("log")
    axes.set_xticks(counts, [str(count) for count in counts])
    axes.xaxis.set_minor_locator(NullLocator())
    axes.set_xlim(counts[0] / 1.3, counts[-1] * 1.3)
    axes.set_xlabel("connections (log scale)")


def _set_latency_axis(axes, series: list[Series]) -> None:
    drawn = any(point is not None and point.p99_ms for one in series for point in one.points)
    if drawn:  # a report without percentiles (wrk run without --latency) has nothing to log
        axes.set_yscale("log")
    axes.set_ylabel("p99 latency (ms, log scale; lower is better)" if drawn
                    else "p99 latency (no percentiles recorded)")


def build_sweep_figure(result: BenchResult) -> Figure:
    """The chart as a Figure, not yet written anywhere; needs cells at two counts or more."""
    counts, series = connection_counts(result), sweep_series(result)
    figure = new_figure(TALL_FIGURE_SIZE_IN)
    rates, latency = figure.subplots(2, 1, sharex=True)
    for one in series:
        _draw_series(rates, counts, one, lambda point: point.rate.median)
        _draw_spread(rates, counts, one)
        _draw_series(latency, counts, one, lambda point: point.p99_ms)
    rates.set_title(sweep_title(result), fontsize=TITLE_SIZE)
    rates.set_ylabel("Requests/sec (higher is better)")
    rates.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    rates.legend(handles=_legend(series), fontsize=LEGEND_SIZE)
    _set_latency_axis(latency, series)
    _set_connection_axis(latency, counts)
    for axes in (rates, latency):
        axes.grid(alpha=GRID_ALPHA)
    return finish_figure(figure, result)


def sweep_png(result: BenchResult) -> bytes:
    return png_bytes(build_sweep_figure(result))
