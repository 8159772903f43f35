"""The CPU chart (result-cpu.png beside result1.png): the server's CPU time per completed
request, per framework and thread setting. It shows what a request costs, which holds
across hosts better than Requests/sec does. On a workload that reads the database (db,
queries), the database's CPU time per request is stacked on each server's bar, lighter and
hatched: together they are what a request costs the host."""

from __future__ import annotations


from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from httplab.model import BenchResult
from httplab.presentation.png.kit import (GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE, TITLE_SIZE,
                                          bar_slots, finish_figure, mark_unmeasured, new_figure,
                                          png_bytes, series_color, set_server_axis, thread_patches,
                                          unmeasured_text, workload_text)
from httplab.presentation.views.figures import cell_figures, measures_database
from httplab.presentation.views.points import (headline_cell, headline_connections, measured,
                                               reference_servers, server_order, thread_settings)
from httplab.results.database_figures import database_figures

DATABASE_LABEL = "database (PostgreSQL)"
DATABASE_HATCH = "xx"  # not kit's "//", which on the other charts means "not limited by the server"
DATABASE_ALPHA = 0.35  # the database's segment: its thread setting's colour, lighter


def cpu_label(microseconds: float) -> str:
    """A bar's value label, e.g. "10.8 µs"."""
    return f"{microseconds:,.1f} µs"


def _short(microseconds: float) -> str:
    """One term of a stacked bar's label: whole µs from 100, else one decimal."""
    return f"{microseconds:,.0f}" if microseconds >= 100 else f"{microseconds:,.1f}"


def server_database_label(server_us: float, database_us: float) -> str:
    """A stacked bar's value label, the server's cost first, e.g. "436 + 607 µs"."""
    return f"{_short(server_us)} + {_short(database_us)} µs"


def _database_cost(cell) -> float | None:
    figures = database_figures(cell)
    return figures.cpu_us_per_request if figures else None


def _draw_group(axes, result: BenchResult, servers: list[str], threads: int,
                offset: float, width: float, color: str, with_database: bool) -> None:
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
        database = _database_cost(cell) if with_database else None
        if database is None:
            axes.bar_label(bar, labels=[cpu_label(cost)], fontsize=SMALL_SIZE, padding=2)
            continue
        top = axes.bar(x, database, width, bottom=cost, facecolor=to_rgba(color, DATABASE_ALPHA),
                       edgecolor=color, hatch=DATABASE_HATCH, linewidth=0.8)
        axes.bar_label(top, labels=[server_database_label(cost, database)],
                       fontsize=SMALL_SIZE, padding=2)


def database_patch() -> Patch:
    """The legend's entry for the database's segment, in the neutral grey of no one setting."""
    return Patch(facecolor=to_rgba("gray", DATABASE_ALPHA), edgecolor="gray",
                 hatch=DATABASE_HATCH, label=DATABASE_LABEL)


def build_cpu_figure(result: BenchResult) -> Figure:
    servers = reference_servers(result) + server_order(result)  # the ceiling's cost first
    settings = thread_settings(result)
    with_database = measures_database(result)
    figure = new_figure()
    axes = figure.subplots()
    width, offsets = bar_slots(len(settings))
    for position, (threads, offset) in enumerate(zip(settings, offsets)):
        _draw_group(axes, result, servers, threads, offset, width, series_color(position),
                    with_database)
    set_server_axis(axes, result, servers)
    connections = headline_connections(result)
    legend = thread_patches(settings, "wrk threads")
    if with_database:
        axes.set_ylabel("CPU time per request (µs): server + database")
        axes.set_title(f"Server and database CPU time per completed request, {connections} "
                       f"connections{workload_text(result)} (lower is better)\n"
                       "each one's CPU time while wrk measured, over the requests wrk "
                       "completed; the label: server + database", fontsize=TITLE_SIZE)
        legend.append(database_patch())
    else:
        axes.set_ylabel("server CPU time per request (µs)")
        axes.set_title(f"Server CPU time per completed request, {connections} "
                       f"connections{workload_text(result)} (lower is better)\n"
                       "its CPU time while wrk measured, over the requests wrk completed",
                       fontsize=TITLE_SIZE)
    axes.legend(handles=legend, fontsize=LEGEND_SIZE)
    axes.grid(axis="y", alpha=GRID_ALPHA)
    axes.margins(y=0.12)
    return finish_figure(figure, result)


def cpu_png(result: BenchResult) -> bytes:
    return png_bytes(build_cpu_figure(result))
