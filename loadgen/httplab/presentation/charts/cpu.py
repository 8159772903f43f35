"""The CPU chart (result-cpu.png beside result1.png): the server's CPU time per completed
request, per framework and thread setting. It shows what a request costs, which holds
across hosts better than Requests/sec does. Drawn from a BenchResult only."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from httplab.model import BenchResult  # noqa: E402
from httplab.presentation.charts.throughput import (  # noqa: E402
    DPI, FIGURE_SIZE_IN, caption, find_cell, measured, reference_servers, save_figure,
    server_order, set_server_ticks, thread_settings, unmeasured_text)
from httplab.presentation.figures import cell_figures  # noqa: E402
from httplab.presentation.points import headline_connections  # noqa: E402


def cpu_label(microseconds: float) -> str:
    """A bar's value label, e.g. "10.8 µs"."""
    return f"{microseconds:,.1f} µs"


def _draw_group(axes, result: BenchResult, servers: list[str], threads: int,
                offset: float, width: float, color: str) -> None:
    for index, server in enumerate(servers):
        cell = find_cell(result, server, threads)
        figures = cell_figures(cell) if measured(cell) else None
        cost = figures.cpu_us_per_request if figures else None
        x = index + offset
        if cost is None:
            text = unmeasured_text(cell) if not measured(cell) else "not sampled"
            axes.text(x, 0, text, rotation=90, ha="center", va="bottom", fontsize=8,
                      color="firebrick")
            continue
        bar = axes.bar(x, cost, width, color=color)
        axes.bar_label(bar, labels=[cpu_label(cost)], fontsize=7, padding=2)


def build_cpu_figure(result: BenchResult) -> Figure:
    servers = reference_servers(result) + server_order(result)  # the ceiling's cost first
    settings = thread_settings(result)
    figure = Figure(figsize=FIGURE_SIZE_IN, dpi=DPI)
    axes = figure.subplots()
    width = 0.8 / max(len(settings), 1)
    for position, threads in enumerate(settings):
        offset = (position - (len(settings) - 1) / 2) * width
        _draw_group(axes, result, servers, threads, offset, width, f"C{position}")
    set_server_ticks(axes, result, servers)
    axes.set_xlim(-0.6, len(servers) - 0.4)
    axes.set_ylabel("server CPU time per request (µs)")
    axes.set_title(f"Server CPU time per completed request, {headline_connections(result)} "
                   "connections (lower is better)\n"
                   "its CPU time while wrk measured, over the requests wrk completed",
                   fontsize=11)
    axes.legend(handles=[Patch(color=f"C{position}", label=f"{threads} wrk threads")
                         for position, threads in enumerate(settings)], fontsize=8)
    axes.grid(axis="y", alpha=0.3)
    axes.margins(y=0.12)
    figure.text(0.01, 0.01, caption(result), fontsize=7, color="dimgray")
    figure.tight_layout(rect=(0, 0.03, 1, 1))
    return figure


def draw_cpu_chart(result: BenchResult, path: Path) -> None:
    save_figure(build_cpu_figure(result), path)
