"""The cost ladder's chart (result-protocols.png beside result1.png), drawn for a latency
run that chose PROTOCOL: per framework, a bar per protocol, its CPU per request at the
common rate (median over rounds), labelled with its ratio against the first protocol; a
protocol the framework cannot serve is marked so."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from httplab.model import BenchResult
from httplab.presentation.png.kit import (GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE, TITLE_SIZE,
                                          bar_slots, finish_figure, mark_unmeasured, new_figure,
                                          png_bytes, series_color)
from httplab.presentation.views.protocol_ladder import Rung, ladder_protocols, ladder_rows
from httplab.presentation.wording.latency import rate_text, server_label
from httplab.presentation.wording.protocols import protocol_name


def build_protocols_figure(result: BenchResult) -> Figure:
    protocols, rows = ladder_protocols(result), ladder_rows(result)
    figure = new_figure()
    axes = figure.subplots()
    width, offsets = bar_slots(len(protocols))
    for index, row in enumerate(rows):
        for position, (rung, offset) in enumerate(zip(row.rungs, offsets)):
            _draw_rung(axes, rung, index + offset, width, series_color(position))
    axes.set_xticks(range(len(rows)), [server_label(result, row.base) for row in rows],
                    fontsize=SMALL_SIZE)
    axes.set_ylabel("server CPU time per request (µs)")
    axes.set_title(f"What each protocol costs, at {rate_text(result.latency.cost_rate)} req/s "
                   f"(lower is better)\nmedian over rounds; the label: the ratio against "
                   f"{protocol_name(protocols[0])}", fontsize=TITLE_SIZE)
    axes.legend(handles=[Patch(color=series_color(position), label=protocol_name(protocol))
                         for position, protocol in enumerate(protocols)], fontsize=LEGEND_SIZE)
    axes.grid(axis="y", alpha=GRID_ALPHA)
    axes.margins(y=0.15)
    return finish_figure(figure, result)


def _draw_rung(axes, rung: Rung, x: float, width: float, color: str) -> None:
    if rung.cost_us is None:
        mark_unmeasured(axes, x, 0, "not applicable" if rung.not_applicable else "not measured")
        return
    bar = axes.bar(x, rung.cost_us, width, color=color)
    ratio = rung.ratio.ratio if rung.ratio is not None else None
    label = f"{rung.cost_us:,.1f}" + ("" if ratio is None else f"\n{ratio:.2f}×")
    axes.bar_label(bar, labels=[label], fontsize=SMALL_SIZE, padding=2)


def protocols_png(result: BenchResult) -> bytes:
    return png_bytes(build_protocols_figure(result))
