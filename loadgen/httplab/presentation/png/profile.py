"""The profile chart (result-profile.png beside result1.png, PROFILE=1): where each profiled
server's CPU time went, one horizontal bar per profiled cell, split by layer (kernel, JDK,
Netty, the framework, the handler, GC, JIT, other) into its share of the samples, summed
over the cell's runs (presentation/views/profile_figures.py). A bar's label says when its event
was itimer (no kernel frames) and when the consistency check did not pass on every run."""

from __future__ import annotations


from matplotlib.figure import Figure
from matplotlib.patches import Patch

from httplab.model import BenchResult, Cell
from httplab.presentation.png.kit import (FIGURE_SIZE_IN, GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE,
                                          TITLE_SIZE, finish_figure, new_figure, png_bytes,
                                          series_color)
from httplab.presentation.views.profile_figures import (ITIMER, OK, by_itimer, cell_check,
                                                        cell_samples, layer_order, layer_shares,
                                                        profiled_cells)

SHARE_LABEL_MIN = 0.04  # a segment narrower than 4 % gets no label: it would not fit
BAR_HEIGHT_IN = 0.75  # the figure grows by this much per bar


def bar_label(result: BenchResult, cell: Cell, with_point: bool) -> str:
    """The server's label; its workload and point when the bars differ in them; its event
    when itimer, and its check when not ok on every run."""
    lines = [result.label(cell.server)]
    if with_point:
        workload = "" if cell.workload.is_plaintext else f"{cell.workload.label} "
        lines.append(f"{workload}t{cell.threads} c{cell.connections}")
    notes = [f"{ITIMER}: no kernel frames"] if by_itimer(cell) else []
    check = cell_check(cell)
    notes += [] if check == OK else [f"check: {check}"]
    return "\n".join(lines + notes)


def _several_points(cells: tuple[Cell, ...]) -> bool:
    return len({(c.workload, c.threads, c.connections) for c in cells}) > 1


def _draw_bar(axes, y: int, shares: tuple[float | None, ...]) -> None:
    """One cell's segments, left to right in the layers' order, each labelled if wide."""
    left = 0.0
    for position, share in enumerate(shares):
        if not share:
            continue
        bar = axes.barh(y, share * 100, left=left, color=series_color(position),
                        edgecolor="white", linewidth=0.6)
        if share >= SHARE_LABEL_MIN:
            axes.bar_label(bar, labels=[f"{share:.0%}"], label_type="center",
                           fontsize=SMALL_SIZE, color="white")
        left += share * 100


def build_profile_figure(result: BenchResult) -> Figure:
    cells = profiled_cells(result)
    layers = layer_order(result)
    width, _ = FIGURE_SIZE_IN
    figure = new_figure((width, 2.4 + BAR_HEIGHT_IN * len(cells)))
    axes = figure.subplots()
    for y, cell in enumerate(cells):
        if cell_samples(cell):
            _draw_bar(axes, y, layer_shares(cell, layers))
        else:
            axes.text(1, y, "no samples (see results.md)", va="center", fontsize=8,
                      color="firebrick")
    with_point = _several_points(cells)
    axes.set_yticks(range(len(cells)),
                    [bar_label(result, cell, with_point) for cell in cells], fontsize=9)
    axes.set_ylim(len(cells) - 0.5, -0.5)  # the first cell on top
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of the profiler's samples (%)")
    axes.set_title("Where the CPU time went inside each server, by layer\nasync-profiler "
                   "during the measured runs, samples summed over each cell's runs",
                   fontsize=TITLE_SIZE)
    axes.legend(handles=[Patch(color=series_color(position), label=layer)
                         for position, layer in enumerate(layers)],
                fontsize=LEGEND_SIZE, loc="upper center", bbox_to_anchor=(0.5, -0.16),
                ncol=len(layers) or 1, frameon=False)
    axes.grid(axis="x", alpha=GRID_ALPHA)
    axes.set_axisbelow(True)
    return finish_figure(figure, result)


def profile_png(result: BenchResult) -> bytes:
    return png_bytes(build_profile_figure(result))
