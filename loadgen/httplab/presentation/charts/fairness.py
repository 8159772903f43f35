"""image/result4.png: how evenly each server shared itself among its connections, from the
h2load runs after wrk's (FAIRNESS=1). Drawn at the first thread setting and the largest
connection count with socket readings (the headline count, as a rule), for the cells that
have them.

Each line is one cell's connections, slowest first, each one's requests over the mean of
all (results/fairness.py): flat at 1 is fair, a steep start means starved connections."""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure

from httplab.model import BenchResult, Cell
from httplab.presentation.charts.kit import (
    CEILING_COLOR, GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE, TITLE_SIZE, finish_figure,
    new_figure, save_figure, series_color, workload_text)
from httplab.presentation.points import cell_at, reference_servers, server_order, thread_settings
from httplab.results.fairness import (
    SLOWEST_FRACTION, Fairness, cell_fairness, fairness_run_for_chart, normalised_rates)

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


def rank_fractions(count: int) -> tuple[float, ...]:
    """Where each of `count` connections stands, slowest (0) to fastest (1)."""
    if count == 1:
        return (0.0,)
    return tuple(index / (count - 1) for index in range(count))


def fairness_label(name: str, fairness: Fairness | None) -> str:
    """E.g. "Netty: max/min 1.42, slowest 10 % served 8.1 %"."""
    if fairness is None:
        return name
    spread = "∞" if math.isinf(fairness.spread) else f"{fairness.spread:.2f}"
    share = "?" if fairness.slowest_share is None else f"{fairness.slowest_share * 100:.1f} %"
    return f"{name}: max/min {spread}, slowest {SLOWEST_FRACTION * 100:g} % served {share}"


def _line(cell: Cell | None, name: str, color: str, linestyle: str) -> FairnessLine | None:
    run = fairness_run_for_chart(cell) if cell is not None else None
    if run is None:
        return None
    return FairnessLine(fairness_label(name, cell_fairness(cell)), color, linestyle,
                        normalised_rates(run))


def fairness_connections(result: BenchResult) -> int | None:
    """The largest connection count at which a cell at the first thread setting has
    per-connection figures: the headline count, unless h2load's socket readings are
    missing there; None when there are none."""
    threads = thread_settings(result)[0]
    return max((cell.connections for cell in result.cells
                if cell.threads == min(threads, cell.connections)
                and fairness_run_for_chart(cell) is not None), default=None)


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


def has_fairness_chart(result: BenchResult) -> bool:
    """Whether result4 has a line to draw: a cell it charts has socket readings."""
    return fairness_connections(result) is not None


def draw_fairness_chart(result: BenchResult, path: Path) -> None:
    save_figure(build_fairness_figure(result), path)
