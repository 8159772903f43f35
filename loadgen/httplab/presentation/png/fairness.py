"""image/result4.png: how evenly each server shared itself among its connections, from the
h2load runs after wrk's (FAIRNESS=1). Drawn at the first thread setting and the largest
connection count with socket readings (the headline count, as a rule), for the cells that
have them.

Each line is one cell's connections, slowest first, each one's requests over the mean of
all (results/fairness.py): flat at 1 is fair, a steep start means starved connections."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from matplotlib.figure import Figure

from httplab.model import BenchResult, Cell
from httplab.presentation.png.kit import (CEILING_COLOR, GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE,
                                          TITLE_SIZE, finish_figure, new_figure, png_bytes,
                                          series_color, workload_text)
from httplab.presentation.views.fairness import fairness_connections, rank_fractions
from httplab.presentation.views.points import (cell_at, reference_servers, server_order,
                                               thread_settings)
from httplab.presentation.wording.cells import fairness_label
from httplab.results.fairness import cell_fairness, fairness_run_for_chart, normalised_rates

HOW_TO_READ = ("How to read: flat at 1 is fair; a steep start means starved connections. "
               "Requests are counted between two readings of the client sockets during "
               "h2load's run.")
MARKED_UP_TO = 64  # connections: with fewer, each one gets a dot


@dataclass(frozen=True)
class FairnessLine:
    label: str
    color: str
    linestyle: str
    rates: tuple[float, ...]  # per connection, over the mean, ascending


def _line(cell: Cell | None, name: str, color: str, linestyle: str) -> FairnessLine | None:
    run = fairness_run_for_chart(cell) if cell is not None else None
    if run is None:
        return None
    return FairnessLine(fairness_label(name, cell_fairness(cell)), color, linestyle,
                        normalised_rates(run))


def fairness_lines(result: BenchResult) -> list[FairnessLine]:
    """The frameworks' cells with socket readings (colours as in the sweep chart), then
    the reference's, dashed."""
    connections = fairness_connections(result)
    if connections is None:
        return []
    threads = thread_settings(result)[0]
    lines = [_line(cell_at(result, server, threads, connections),
                   result.label(server), series_color(index), "-")
             for index, server in enumerate(server_order(result))]
    lines += [_line(cell_at(result, server, threads, connections),
                    f"ceiling: {result.label(server)} (reference)", CEILING_COLOR, "--")
              for server in reference_servers(result)]
    return [line for line in lines if line is not None]


def fairness_title(result: BenchResult) -> str:
    return (f"Per-connection fairness, h2load, {fairness_connections(result)} connections"
            f"{workload_text(result)}, after wrk at {thread_settings(result)[0]} threads\n"
            "each connection's requests over the mean of all, slowest first")


def reading_note(result: BenchResult) -> str:
    """The caption's first line; with repeats, which of a cell's h2load runs is drawn."""
    if result.settings and result.settings.repeat > 1:
        return (HOW_TO_READ + " Of a cell's h2load runs, the one with the median max/min "
                "is drawn; the legend's figures are medians over its runs.")
    return HOW_TO_READ


def build_fairness_figure(result: BenchResult) -> Figure:
    """The chart as a Figure, not yet written anywhere; empty axes without socket readings."""
    figure = new_figure()
    axes = figure.subplots()
    for line in fairness_lines(result):
        axes.plot(rank_fractions(len(line.rates)), line.rates, color=line.color,
                  linestyle=line.linestyle, label=line.label, markersize=3,
                  marker="o" if len(line.rates) <= MARKED_UP_TO else None)
    axes.axhline(1.0, color="black", linestyle=":", linewidth=1, label="perfectly fair")
    axes.set_xlim(0, 1)
    axes.set_ylim(bottom=0)
    axes.set_xlabel("connections, slowest to fastest (rank as a fraction of all)")
    axes.set_ylabel("requests / mean of all connections")
    axes.set_title(fairness_title(result), fontsize=TITLE_SIZE)
    axes.legend(fontsize=LEGEND_SIZE)
    axes.grid(alpha=GRID_ALPHA)
    figure.text(0.01, 0.045, textwrap.fill(reading_note(result), 160), fontsize=SMALL_SIZE,
                va="bottom")
    return finish_figure(figure, result, bottom=0.08)


def fairness_png(result: BenchResult) -> bytes:
    return png_bytes(build_fairness_figure(result))
