"""What every chart shares: its size, style and colours, the caption under it, the server
labels under its bars, how it shows a cell that was not measured or not limited by the
server alone, and the PNG's bytes."""

from __future__ import annotations

import io
import textwrap

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from httplab.model import BenchResult, Cell, CellStatus
from httplab.presentation.views.sweep import server_limited

FIGURE_SIZE_IN = (10, 6.2)
DPI = 110
TITLE_SIZE = 11
LEGEND_SIZE = 8
SMALL_SIZE = 7  # value labels, notes and the caption
GRID_ALPHA = 0.3
CEILING_COLOR = "gray"  # the reference server (the ceiling), in lines and legends
LIMITED_ELSEWHERE_HATCH = "//"  # a cell whose verdict is not "server" (results/bottleneck.py)
LIMITED_ELSEWHERE = "not limited by the server alone\n(wrk, shared CPUs or unknown: see results.md)"


def series_color(position: int) -> str:
    """The colour of a chart's thread setting, framework or percentile at this position."""
    return f"C{position}"


def new_figure(size_in: tuple[float, float] = FIGURE_SIZE_IN) -> Figure:
    """A Figure not held by pyplot, so nothing stays open once it is dropped."""
    return Figure(figsize=size_in, dpi=DPI)


def caption(result: BenchResult) -> str:
    """Who produced the numbers, and how: shown under every chart."""
    warmup = ""
    if result.settings:
        warmup = " | warm-up before measuring" if result.settings.warmup_s else " | cold: no warm-up"
    return f"Host: {result.host.describe()} | run {result.created_utc}{warmup}"


def finish_figure(figure: Figure, result: BenchResult, bottom: float = 0.03) -> Figure:
    """Writes the caption under the chart and lays the chart out above `bottom` (a fraction
    of the figure's height)."""
    figure.text(0.01, 0.01, caption(result), fontsize=SMALL_SIZE, color="dimgray")
    figure.tight_layout(rect=(0, bottom, 1, 1))
    return figure


def duration_text(result: BenchResult) -> str:
    """A title's part, e.g. ", 10 s per run"; empty when the settings are unknown."""
    return f", {result.settings.duration_s:g} s per run" if result.settings else ""


def workload_text(result: BenchResult) -> str:
    """A title's part naming the drawn cells' workload, e.g. ", blocking 10 ms"; empty for
    plaintext, as the charts of the original protocol always were."""
    workloads = {cell.workload for cell in result.cells}
    if len(workloads) != 1:
        return ""
    (workload,) = workloads
    return "" if workload.is_plaintext else f", {workload.label}"


def repeats_text(result: BenchResult) -> str:
    """A title's second line when cells were measured more than once (each bar or point
    the median, its whisker the runs' range); else empty."""
    if result.settings and result.settings.repeat > 1:
        return f"\nmedian of {result.settings.repeat} runs, whiskers from min to max"
    return ""


def thread_patches(settings: list[int], unit: str) -> list[Patch]:
    """Legend entries, one colour per thread setting, e.g. "10 threads"."""
    return [Patch(color=series_color(position), label=f"{threads} {unit}")
            for position, threads in enumerate(settings)]


def bar_slots(bars_per_group: int) -> tuple[float, list[float]]:
    """The bar width, and each bar's offset from its group's centre, in a group of bars."""
    width = 0.8 / max(bars_per_group, 1)
    return width, [(position - (bars_per_group - 1) / 2) * width
                   for position in range(bars_per_group)]


def set_server_axis(axes, result: BenchResult, servers: list[str],
                    notes: dict[str, str] | None = None) -> None:
    """One slot per server, labelled (with its note, if any, on a line below); the same
    slots whether a server failed or not."""
    _set_server_ticks(axes, result, servers, notes or {})
    axes.set_xlim(-0.6, len(servers) - 0.4)


CROWDED_LABELS = 10


def _set_server_ticks(axes, result: BenchResult, servers: list[str],
                      notes: dict[str, str]) -> None:
    """Slanted and wrapped when many labels would overlap."""
    many = len(servers) > 5
    labels = [(textwrap.fill(result.label(name), width=18) if many else result.label(name))
              + (f"\n{notes[name]}" if name in notes else "") for name in servers]
    if not many:
        axes.set_xticks(range(len(servers)), labels, fontsize=9)
        return
    crowded = len(servers) > CROWDED_LABELS  # variants: steeper, so neighbours do not overlap
    axes.set_xticks(range(len(servers)), labels, fontsize=8, rotation=60 if crowded else 30,
                    ha="right", rotation_mode="anchor")


def unmeasured_text(cell: Cell | None) -> str:
    """What stands in for an unmeasured cell's bar: "failed", or "n/a" when there is none."""
    return "failed" if cell is not None and cell.status is CellStatus.FAILED else "n/a"


def mark_unmeasured(axes, x: float, y: float, text: str, **placement) -> None:
    """Writes `text` (e.g. "failed") upright where a bar would stand; never a zero bar."""
    axes.text(x, y, text, rotation=90, ha="center", va="bottom", fontsize=8,
              color="firebrick", **placement)


def limited_elsewhere_hatch(cell: Cell, result: BenchResult) -> str | None:
    return None if server_limited(cell, result) else LIMITED_ELSEWHERE_HATCH


def limited_elsewhere_patch() -> Patch:
    return Patch(facecolor="white", edgecolor="black", hatch=LIMITED_ELSEWHERE_HATCH,
                 label=f"hatched: {LIMITED_ELSEWHERE}")


def png_bytes(figure: Figure) -> bytes:
    """The figure as a PNG file's bytes (publish writes them)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
