"""image/result2.png: latency percentiles and server memory per framework, side by side.

Latency uses the first thread setting and the headline connection count, so every framework
is shown under the same load; figures are medians over a cell's runs. A cell that failed is
drawn as "failed" (never as a zero bar), even when it carries a run."""

from __future__ import annotations


from matplotlib.figure import Figure

from httplab.model import BenchResult, Cell
from httplab.presentation.png.kit import (GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE, bar_slots,
                                          finish_figure, mark_unmeasured, new_figure, png_bytes,
                                          series_color, set_server_axis, unmeasured_text,
                                          workload_text)
from httplab.presentation.views.figures import CellFigures, cell_figures
from httplab.presentation.views.points import (headline_cell, headline_connections, measured,
                                               server_order, thread_settings)

PERCENTILES = (("p50", "latency_p50_us"), ("p99", "latency_p99_us"), ("p99.9", "latency_p999_us"))
MEMORY_COLOR = series_color(4)  # apart from the percentiles'
WIDE_FIGURE_SIZE_IN = (12, 5.6)
MIB = 2**20


def _cells_at(result: BenchResult, servers: list[str], threads: int) -> dict[str, Cell]:
    cells = {server: headline_cell(result, server, threads) for server in servers}
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
            mark_unmeasured(axes, index, 0.01, unmeasured_text(cells.get(server)),
                            transform=axes.get_xaxis_transform())


def _draw_latency(axes, servers: list[str], figures: dict[str, CellFigures]) -> None:
    width, offsets = bar_slots(len(PERCENTILES))
    shown = [index for index, server in enumerate(servers) if server in figures]
    drawn = False
    for position, ((name, field), offset) in enumerate(zip(PERCENTILES, offsets)):
        values = [(getattr(figures[servers[i]], field) or 0) / 1000 for i in shown]
        axes.bar([i + offset for i in shown], values, width, label=name,
                 color=series_color(position))
        drawn = drawn or any(values)
    if drawn:  # a report without percentiles (wrk run without --latency) has nothing to log
        axes.set_yscale("log")
    axes.set_ylabel("latency (ms, log scale)" if drawn else "latency (no percentiles recorded)")
    axes.legend(fontsize=LEGEND_SIZE)


def cpu_label(figures: CellFigures) -> str:
    """A memory bar's label: the CPU the server used, e.g. "1.51 cores"."""
    return "n/a" if figures.cpu_cores is None else f"{figures.cpu_cores:.2f} cores"


def _draw_memory(axes, servers: list[str], figures: dict[str, CellFigures]) -> None:
    shown = [index for index, server in enumerate(servers) if server in figures]
    peaks = [(figures[servers[i]].memory_peak_bytes or 0) / MIB for i in shown]
    bars = axes.bar(shown, peaks, 0.6, color=MEMORY_COLOR)
    axes.bar_label(bars, labels=[cpu_label(figures[servers[i]]) for i in shown],
                   fontsize=SMALL_SIZE, padding=2)
    axes.set_ylabel("peak memory while measured (MiB); label: CPU used")


def build_latency_memory_figure(result: BenchResult) -> Figure:
    """The chart as a Figure, not yet written anywhere: latency left, memory right."""
    servers, threads = server_order(result), thread_settings(result)[0]
    cells = _cells_at(result, servers, threads)
    load = f"{threads} threads, {headline_connections(result)} connections{workload_text(result)}"
    figures = _figures_of(cells)
    figure = new_figure(WIDE_FIGURE_SIZE_IN)
    left, right = figure.subplots(1, 2)
    _draw_latency(left, servers, figures)
    _draw_memory(right, servers, figures)
    for axes, title in ((left, "Latency percentiles (lower is better)"),
                        (right, "Server memory and CPU")):
        _mark_unmeasured(axes, servers, cells, figures)
        set_server_axis(axes, result, servers)
        axes.set_title(f"{title}, {load}", fontsize=10)
        axes.grid(axis="y", alpha=GRID_ALPHA)
    return finish_figure(figure, result)


def latency_memory_png(result: BenchResult) -> bytes:
    return png_bytes(build_latency_memory_figure(result))
