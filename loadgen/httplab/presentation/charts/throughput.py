"""image/result1.png: grouped bars of Requests/sec per framework, one bar per thread setting,
at one connection count: the headline one (presentation/points.py).

Drawn from a BenchResult only (what results.json holds), never from live measurements."""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display on benchmark hosts and CI
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import StrMethodFormatter  # noqa: E402

from httplab.model import BenchResult, Cell, CellStatus  # noqa: E402
from httplab.presentation.points import cell_at, headline_connections  # noqa: E402
from httplab.results.bottleneck import Limit, cell_bottleneck  # noqa: E402
from httplab.results.stats import Summary, cell_summary  # noqa: E402

FIGURE_SIZE_IN = (10, 6.2)
DPI = 110
LIMITED_ELSEWHERE_HATCH = "//"  # a cell whose verdict is not "server" (results/bottleneck.py)
LIMITED_ELSEWHERE = "not limited by the server alone\n(wrk, shared CPUs or unknown: see results.md)"


def thread_settings(result: BenchResult) -> list[int]:
    if result.settings:
        return list(result.settings.threads)
    return sorted({cell.threads for cell in result.cells}, reverse=True)


def server_order(result: BenchResult) -> list[str]:
    """The frameworks, fastest first: by each one's best median Requests/sec; unmeasured
    ones last. The reference server is not among them: it is the ceiling line."""
    servers = [name for name in dict.fromkeys(cell.server for cell in result.cells)
               if name not in reference_servers(result)]
    return sorted(servers, key=lambda server: -_best_rate(result, server))


def reference_servers(result: BenchResult) -> list[str]:
    return [record.name for record in result.servers if record.is_reference]


def _best_rate(result: BenchResult, server: str) -> float:
    rates = [cell_summary(cell).median for cell in result.cells
             if cell.server == server and measured(cell)]
    return max(rates, default=-1.0)


def find_cell(result: BenchResult, server: str, threads: int) -> Cell | None:
    """The server's cell at this thread setting and the headline connection count."""
    connections = headline_connections(result)
    return None if connections is None else cell_at(result, server, threads, connections)


def chart_title(result: BenchResult) -> str:
    connections = headline_connections(result) or "?"
    return (f"wrk Requests/sec, {connections} connections{duration_text(result)} "
            f"(higher is better){repeats_text(result)}")


def duration_text(result: BenchResult) -> str:
    """E.g. ", 10 s per run"; empty when the settings are unknown."""
    return f", {result.settings.duration_s:g} s per run" if result.settings else ""


def repeats_text(result: BenchResult) -> str:
    """A title's second line when cells were measured more than once; else empty."""
    if result.settings and result.settings.repeat > 1:
        return f"\nmedian of {result.settings.repeat} runs, bars from min to max"
    return ""


def measured(cell: Cell | None) -> bool:
    """Whether a cell is drawn as figures: only an OK cell with runs. A FAILED cell is drawn
    as "failed" even when it carries a run (e.g. one with zero requests)."""
    return cell is not None and cell.status is CellStatus.OK and bool(cell.runs)


def unmeasured_text(cell: Cell | None) -> str:
    """What stands in for an unmeasured cell's bar: "failed", or "n/a" when there is none."""
    return "failed" if cell is not None and cell.status is CellStatus.FAILED else "n/a"


def rate_label(rate: Summary) -> str:
    """A bar's value label: its median Requests/sec, e.g. "69,297"."""
    return f"{rate.median:,.0f}"


def _draw_group(axes, result: BenchResult, servers: list[str], threads: int,
                offset: float, width: float) -> None:
    for index, server in enumerate(servers):
        cell = find_cell(result, server, threads)
        x = index + offset
        if not measured(cell):
            axes.text(x, 0, unmeasured_text(cell), rotation=90, ha="center",
                      va="bottom", fontsize=8, color="firebrick")
            continue
        rate = cell_summary(cell)
        spread = [[rate.median - rate.minimum], [rate.maximum - rate.median]] if rate.n > 1 else None
        limited_elsewhere = cell_bottleneck(cell, result).limit is not Limit.SERVER
        bar = axes.bar(x, rate.median, width, color=f"C{_color(result, threads)}", yerr=spread,
                       capsize=3, error_kw={"elinewidth": 1},
                       hatch=LIMITED_ELSEWHERE_HATCH if limited_elsewhere else None)
        axes.bar_label(bar, labels=[rate_label(rate)], fontsize=7, padding=2)


def _color(result: BenchResult, threads: int) -> int:
    return thread_settings(result).index(threads)


def _draw_ceiling(axes, result: BenchResult, threads: int, color: str) -> None:
    """The reference's median at these threads as a dashed line across the chart."""
    for name in reference_servers(result):
        cell = find_cell(result, name, threads)
        if measured(cell):
            rate = cell_summary(cell).median
            axes.axhline(rate, color=color, linestyle="--", linewidth=1.2)
            axes.annotate(f"{result.label(name)}, {threads} threads: {rate:,.0f}", (1.0, rate),
                          xycoords=("axes fraction", "data"), ha="right", va="bottom",
                          fontsize=7, color=color)


def _legend(settings: list[int], with_ceiling: bool) -> list:
    handles = [Patch(color=f"C{position}", label=f"{threads} threads")
               for position, threads in enumerate(settings)]
    if with_ceiling:
        handles.append(Line2D([], [], color="gray", linestyle="--",
                              label="dashed: the ceiling (reference server, same load)"))
    return handles + [Patch(facecolor="white", edgecolor="black", hatch=LIMITED_ELSEWHERE_HATCH,
                            label=f"hatched: {LIMITED_ELSEWHERE}")]


def caption(result: BenchResult) -> str:
    """Who produced the numbers, and how: shown under every chart."""
    warmup = ""
    if result.settings:
        warmup = " | warm-up before measuring" if result.settings.warmup_s else " | cold: no warm-up"
    return f"Host: {result.host.describe()} | run {result.created_utc}{warmup}"


def build_throughput_figure(result: BenchResult) -> Figure:
    """The chart as a Figure, not yet written anywhere; the caption names the host."""
    servers, settings = server_order(result), thread_settings(result)
    figure = Figure(figsize=FIGURE_SIZE_IN, dpi=DPI)
    axes = figure.subplots()
    width = 0.8 / max(len(settings), 1)
    for position, threads in enumerate(settings):
        offset = (position - (len(settings) - 1) / 2) * width
        _draw_group(axes, result, servers, threads, offset, width)
        _draw_ceiling(axes, result, threads, f"C{position}")
    set_server_ticks(axes, result, servers)
    axes.set_xlim(-0.6, len(servers) - 0.4)
    axes.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    axes.set_ylabel("Requests/sec")
    axes.set_title(chart_title(result), fontsize=11)
    axes.legend(handles=_legend(settings, bool(reference_servers(result))), fontsize=8)
    axes.grid(axis="y", alpha=0.3)
    axes.margins(y=0.12)
    figure.text(0.01, 0.01, caption(result), fontsize=7, color="dimgray")
    figure.tight_layout(rect=(0, 0.03, 1, 1))
    return figure


def set_server_ticks(axes, result: BenchResult, servers: list[str]) -> None:
    """One label per server under its group; slanted and wrapped when many would overlap."""
    labels = [result.label(name) for name in servers]
    if len(servers) <= 5:
        axes.set_xticks(range(len(servers)), labels, fontsize=9)
        return
    wrapped = [textwrap.fill(label, width=18) for label in labels]
    axes.set_xticks(range(len(servers)), wrapped, fontsize=8, rotation=30, ha="right",
                    rotation_mode="anchor")


def save_figure(figure: Figure, path: Path) -> None:
    """Writes the figure as a PNG, creating its folder. The figure is not held by pyplot,
    so nothing stays open once it is dropped."""
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)


def draw_throughput_chart(result: BenchResult, path: Path) -> None:
    """Writes the PNG; the caption names the host that produced the numbers."""
    save_figure(build_throughput_figure(result), path)
