"""image/result1.png: grouped bars of Requests/sec per framework, one bar per thread setting,
at one connection count: the headline one (presentation/views/points.py). The reference server is
a dashed line across the chart, a cell not limited by the server alone is hatched. On delay
and blocking, a dotted line across each framework's bars is the bound waiting sets
(results/littles_law.py), its figure under the framework's name, and each bar's label
gives its share of it."""

from __future__ import annotations


from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import StrMethodFormatter

from httplab.model import BenchResult, CellStatus
from httplab.presentation.png.kit import (CEILING_COLOR, GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE,
                                          TITLE_SIZE, bar_slots, duration_text, finish_figure,
                                          limited_elsewhere_hatch, limited_elsewhere_patch,
                                          mark_unmeasured, new_figure, repeats_text, png_bytes,
                                          series_color, set_server_axis, thread_patches,
                                          unmeasured_text, workload_text)
from httplab.presentation.views.points import (headline_cell, headline_cells, headline_connections,
                                               measured, reference_servers, server_order,
                                               thread_settings)
from httplab.results.littles_law import WaitBound, cell_wait_bound
from httplab.results.stats import Summary, cell_summary


BOUND_COLOR = "black"
BOUND_HEADROOM = 1.3
BOUND_LABEL = "_littles_law_bound"  # "_": not in the legend, which says what the line is
BOUND_MEANING = ("dotted: the bound waiting sets (Little's law), under each name with what "
                 "set it;\nthe % under a bar's figure is its share of the bound")


def chart_title(result: BenchResult) -> str:
    connections = headline_connections(result) or "?"
    return (f"wrk Requests/sec, {connections} connections{workload_text(result)}"
            f"{duration_text(result)} (higher is better){repeats_text(result)}")


def rate_label(rate: Summary, bound: WaitBound | None = None) -> str:
    """A bar's value label: its median Requests/sec, e.g. "69,297", and below it, on
    delay and blocking, its share of the bound, e.g. "99 %"."""
    text = f"{rate.median:,.0f}"
    return text if bound is None else f"{text}\n{rate.median / bound.rate:.0%}"


def server_bound(result: BenchResult, server: str) -> WaitBound | None:
    """The bound of the server's cells at the headline count (the same at every thread
    setting: it depends on the connections and the pool); None but on delay and blocking."""
    return next((cell_wait_bound(cell, result) for cell in headline_cells(result, server)
                 if cell.status is not CellStatus.NOT_APPLICABLE), None)


def _draw_bounds(axes, result: BenchResult, servers: list[str], width: float,
                 offsets: list[float]) -> dict[str, str]:
    """Each framework's bound as a dotted line across its bars; returns the note under its
    name, e.g. "bound 20,000 (pool)", for those that have one."""
    notes = {}
    for index, server in enumerate(servers):
        bound = server_bound(result, server)
        if bound is None:
            continue
        axes.hlines(bound.rate, index + offsets[0] - width / 2, index + offsets[-1] + width / 2,
                    colors=BOUND_COLOR, linestyles=":", linewidth=1.5, label=BOUND_LABEL)
        notes[server] = f"bound {bound.rate:,.0f}\n({bound.set_by})"  # 2 lines: bars are narrow
    return notes


def _draw_group(axes, result: BenchResult, servers: list[str], threads: int,
                offset: float, width: float, color: str) -> None:
    for index, server in enumerate(servers):
        cell = headline_cell(result, server, threads)
        x = index + offset
        if not measured(cell):
            mark_unmeasured(axes, x, 0, unmeasured_text(cell))
            continue
        rate = cell_summary(cell)
        spread = [[rate.median - rate.minimum], [rate.maximum - rate.median]] if rate.n > 1 else None
        bar = axes.bar(x, rate.median, width, color=color, yerr=spread,
                       capsize=3, error_kw={"elinewidth": 1},
                       hatch=limited_elsewhere_hatch(cell, result))
        axes.bar_label(bar, labels=[rate_label(rate, cell_wait_bound(cell, result))],
                       fontsize=SMALL_SIZE, padding=2)


def _draw_ceiling(axes, result: BenchResult, threads: int, color: str) -> None:
    """The reference's median at these threads as a dashed line across the chart."""
    for name in reference_servers(result):
        cell = headline_cell(result, name, threads)
        if measured(cell):
            rate = cell_summary(cell).median
            axes.axhline(rate, color=color, linestyle="--", linewidth=1.2)
            axes.annotate(f"{result.label(name)}, {threads} threads: {rate:,.0f}", (1.0, rate),
                          xycoords=("axes fraction", "data"), ha="right", va="bottom",
                          fontsize=SMALL_SIZE, color=color)


def _legend(settings: list[int], with_ceiling: bool, with_bounds: bool) -> list:
    handles = thread_patches(settings, "threads")
    if with_ceiling:
        handles.append(Line2D([], [], color=CEILING_COLOR, linestyle="--",
                              label="dashed: the ceiling (reference server, same load)"))
    if with_bounds:
        handles.append(Line2D([], [], color=BOUND_COLOR, linestyle=":", label=BOUND_MEANING))
    return handles + [limited_elsewhere_patch()]


def build_throughput_figure(result: BenchResult) -> Figure:
    """The chart as a Figure, not yet written anywhere; the caption names the host."""
    servers, settings = server_order(result), thread_settings(result)
    figure = new_figure()
    axes = figure.subplots()
    width, offsets = bar_slots(len(settings))
    for position, (threads, offset) in enumerate(zip(settings, offsets)):
        _draw_group(axes, result, servers, threads, offset, width, series_color(position))
        _draw_ceiling(axes, result, threads, series_color(position))
    bounds = _draw_bounds(axes, result, servers, width, offsets)
    set_server_axis(axes, result, servers, bounds)
    axes.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    axes.set_ylabel("Requests/sec")
    axes.set_title(chart_title(result), fontsize=TITLE_SIZE)
    axes.legend(handles=_legend(settings, bool(reference_servers(result)), bool(bounds)),
                fontsize=LEGEND_SIZE)
    axes.grid(axis="y", alpha=GRID_ALPHA)
    axes.margins(y=0.12)
    if bounds:  # room above the bounds' lines for the legend, which would hide them
        axes.set_ylim(top=axes.get_ylim()[1] * BOUND_HEADROOM)
    return finish_figure(figure, result)


def throughput_png(result: BenchResult) -> bytes:
    return png_bytes(build_throughput_figure(result))
