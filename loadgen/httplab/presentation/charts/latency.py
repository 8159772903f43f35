"""image/result2.png: latency percentiles and server memory per framework, side by side.

Drawn from a BenchResult only. Latency uses the first thread setting and the headline
connection count, so every framework is shown under the same load; figures are medians over
a cell's runs. A cell that failed is drawn as "failed" (never as a zero bar), even when it
carries a run."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

from httplab.presentation.charts.throughput import (  # noqa: E402
    DPI, caption, find_cell, measured, save_figure, server_order, set_server_ticks,
    thread_settings, unmeasured_text)
from httplab.presentation.points import headline_connections  # noqa: E402
from httplab.presentation.figures import CellFigures, cell_figures  # noqa: E402
from httplab.model import BenchResult, Cell  # noqa: E402

PERCENTILES = (("p50", "latency_p50_us"), ("p99", "latency_p99_us"), ("p99.9", "latency_p999_us"))
FIGURE_SIZE_IN = (12, 5.6)
MIB = 2**20


def _cells_at(result: BenchResult, servers: list[str], threads: int) -> dict[str, Cell]:
    cells = {server: find_cell(result, server, threads) for server in servers}
    return {server: cell for server, cell in cells.items() if cell is not None}


def _figures_of(cells: dict[str, Cell]) -> dict[str, CellFigures]:
    """The measured cells' figures, by server; failed cells have none."""
    return {server: cell_figures(cell) for server, cell in cells.items() if measured(cell)}


def _mark_unmeasured(axes, servers: list[str], cells: dict[str, Cell],
                     figures: dict[str, CellFigures]) -> None:
    """"failed" (or "n/a") where a server has no figures; x in data, y in axes units, so
    it also stands on a log scale."""
    for index, server in enumerate(servers):
        if server not in figures:
            axes.text(index, 0.01, unmeasured_text(cells.get(server)), rotation=90,
                      ha="center", va="bottom", fontsize=8, color="firebrick",
                      transform=axes.get_xaxis_transform())


def _draw_latency(axes, servers: list[str], figures: dict[str, CellFigures]) -> None:
    width = 0.8 / len(PERCENTILES)
    shown = [index for index, server in enumerate(servers) if server in figures]
    drawn = False
    for position, (name, field) in enumerate(PERCENTILES):
        offset = (position - (len(PERCENTILES) - 1) / 2) * width
        values = [(getattr(figures[servers[i]], field) or 0) / 1000 for i in shown]
        axes.bar([i + offset for i in shown], values, width, label=name, color=f"C{position}")
        drawn = drawn or any(values)
    if drawn:  # a report without percentiles (wrk run without --latency) has nothing to log
        axes.set_yscale("log")
    axes.set_ylabel("latency (ms, log scale)" if drawn else "latency (no percentiles recorded)")
    axes.legend(fontsize=8)


def cpu_label(figures: CellFigures) -> str:
    """A memory bar's label: the CPU the server used, e.g. "1.51 cores"."""
    return "n/a" if figures.cpu_cores is None else f"{figures.cpu_cores:.2f} cores"


def _draw_memory(axes, servers: list[str], figures: dict[str, CellFigures]) -> None:
    shown = [index for index, server in enumerate(servers) if server in figures]
    peaks = [(figures[servers[i]].memory_peak_bytes or 0) / MIB for i in shown]
    bars = axes.bar(shown, peaks, 0.6, color="C4")
    axes.bar_label(bars, labels=[cpu_label(figures[servers[i]]) for i in shown], fontsize=7,
                   padding=2)
    axes.set_ylabel("peak memory while measured (MiB); label: CPU used")


def build_latency_memory_figure(result: BenchResult) -> Figure:
    """The chart as a Figure, not yet written anywhere: latency left, memory right."""
    servers, threads = server_order(result), thread_settings(result)[0]
    cells = _cells_at(result, servers, threads)
    load = f"{threads} threads, {headline_connections(result)} connections"
    figures = _figures_of(cells)
    figure = Figure(figsize=FIGURE_SIZE_IN, dpi=DPI)
    left, right = figure.subplots(1, 2)
    _draw_latency(left, servers, figures)
    _draw_memory(right, servers, figures)
    for axes, title in ((left, "Latency percentiles (lower is better)"),
                        (right, "Server memory and CPU")):
        _mark_unmeasured(axes, servers, cells, figures)
        set_server_ticks(axes, result, servers)
        axes.set_xlim(-0.6, len(servers) - 0.4)  # the same slots whether a server failed or not
        axes.set_title(f"{title}, {load}", fontsize=10)
        axes.grid(axis="y", alpha=0.3)
    figure.text(0.01, 0.01, caption(result), fontsize=7, color="dimgray")
    figure.tight_layout(rect=(0, 0.03, 1, 1))
    return figure


def draw_latency_memory_chart(result: BenchResult, path: Path) -> None:
    save_figure(build_latency_memory_figure(result), path)
