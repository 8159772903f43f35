"""The CPU chart (result-cpu.png beside result1.png): the server's CPU time per completed
request, per framework and thread setting. It shows what a request costs, which holds
across hosts better than Requests/sec does."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from httplab.model import BenchResult
from httplab.presentation.charts.kit import (
    GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE, TITLE_SIZE, bar_slots, finish_figure,
    mark_unmeasured, new_figure, save_figure, series_color, set_server_axis, thread_patches,
    unmeasured_text, workload_text)
from httplab.presentation.figures import cell_figures
from httplab.presentation.points import (headline_cell, headline_connections, measured,
                                         reference_servers, server_order, thread_settings)


def cpu_label(microseconds: float) -> str:
    """A bar's value label, e.g. "10.8 µs"."""
    return f"{microseconds:,.1f} µs"


def _draw_group(axes, result: BenchResult, servers: list[str], threads: int,
                offset: float, width: float, color: str) -> None:
    for index, server in enumerate(servers):
        cell = headline_cell(result, server, threads)
        figures = cell_figures(cell) if measured(cell) else None
        cost = figures.cpu_us_per_request if figures else None
        x = index + offset
        if cost is None:
            mark_unmeasured(axes, x, 0, unmeasured_text(cell) if not measured(cell)
                            else "not sampled")
            continue
        bar = axes.bar(x, cost, width, color=color)
        axes.bar_label(bar, labels=[cpu_label(cost)], fontsize=SMALL_SIZE, padding=2)


def build_cpu_figure(result: BenchResult) -> Figure:
    servers = reference_servers(result) + server_order(result)  # the ceiling's cost first
    settings = thread_settings(result)
    figure = new_figure()
    axes = figure.subplots()
    width, offsets = bar_slots(len(settings))
    for position, (threads, offset) in enumerate(zip(settings, offsets)):
        _draw_group(axes, result, servers, threads, offset, width, series_color(position))
    set_server_axis(axes, result, servers)
    axes.set_ylabel("server CPU time per request (µs)")
    axes.set_title(f"Server CPU time per completed request, {headline_connections(result)} "
                   f"connections{workload_text(result)} (lower is better)\n"
                   "its CPU time while wrk measured, over the requests wrk completed",
                   fontsize=TITLE_SIZE)
    axes.legend(handles=thread_patches(settings, "wrk threads"), fontsize=LEGEND_SIZE)
    axes.grid(axis="y", alpha=GRID_ALPHA)
    axes.margins(y=0.12)
    return finish_figure(figure, result)


def draw_cpu_chart(result: BenchResult, path: Path) -> None:
    save_figure(build_cpu_figure(result), path)
