"""The bar charts of one workload at the headline connection count (as result1.png,
result2.png and result-cpu.png): one trace per server, a bar per thread setting (or per
percentile), each bar's figures in its hover and in the table under the chart. A cell
that was not measured draws no bar (never a zero one): it is named under the chart and
its status is in the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from httplab.model import BenchResult, Cell, CellStatus
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.parts import (FAILED_COLOR, HATCH, Row, base_layout, drawn,
                                               hover_lines, server_trace, status_text, table,
                                               unmeasured_note)
from httplab.presentation.views.points import (headline_cell, headline_connections, measured,
                                               thread_settings)

HEAD = ("Framework", "Threads", "Connections")


@dataclass(frozen=True)
class Bar:
    """What one measured cell draws: its bar's height (None: nothing to draw, e.g. CPU not
    sampled), its hover lines, and its figures in the table's row."""

    value: float | None
    hover: tuple[str | None, ...]
    row: Row
    below: float = 0.0  # the error bar: down to the slowest run, up to the fastest
    above: float = 0.0
    hatched: bool = False  # not limited by the server alone
    stacked: float | None = None  # a second segment on top (the database's CPU)


@dataclass(frozen=True)
class BarChart:
    key: str
    title: str
    caption: str
    y_title: str
    columns: tuple[str, ...]  # the table's figures, between HEAD and the status
    measure: Callable[[Cell], Bar]  # a measured cell's bar
    stacked_name: str = ""  # what a bar's second segment is
    y_log: bool = False


def thread_label(threads: int) -> str:
    return f"{threads} threads"


def load_line(cell: Cell) -> str:
    return f"{cell.threads} threads, {cell.connections} connections"


def bar_chart(result: BenchResult, servers: list[str], chart: BarChart) -> ChartSpec:
    """One trace per server over the thread settings, at the headline connection count."""
    settings = thread_settings(result)
    x = [thread_label(threads) for threads in settings]
    cells = {server: [headline_cell(result, server, threads) for threads in settings]
             for server in servers}
    bars = {server: [chart.measure(cell) if measured(cell) else None for cell in row]
            for server, row in cells.items()}
    traces = [_trace(result, server, x, bars[server]) for server in servers]
    if any(bar and bar.stacked is not None for row in bars.values() for bar in row):
        traces += [_stacked_trace(result, server, x, bars[server], chart.stacked_name)
                   for server in servers]
        for trace in traces:
            trace["offsetgroup"] = trace["legendgroup"]
    layout = base_layout("wrk threads", chart.y_title, barmode="group",
                         annotations=_unmeasured_marks(result, x, cells, bars))
    if chart.y_log:
        layout["yaxis"] |= {"type": "log", "rangemode": "normal"}
    missing = [cell for row in cells.values() for cell in row if not measured(cell)]
    caption = " ".join(filter(None, (chart.caption, unmeasured_note(result, missing))))
    rows = [_row(result, cell, bar, len(chart.columns))
            for server in servers for cell, bar in zip(cells[server], bars[server])
            if cell is not None]
    return ChartSpec(chart.key, chart.title, caption, {"data": drawn(traces), "layout": layout},
                     table(HEAD + chart.columns + ("Status",), rows))


def _trace(result: BenchResult, server: str, x: list[str], bars: list[Bar | None]) -> dict:
    trace = server_trace(result, server, "bar", [_hover(bar) for bar in bars], x=x,
                         y=[bar.value if bar else None for bar in bars])
    trace["marker"]["pattern"] = {"shape": [HATCH if bar and bar.hatched else ""
                                            for bar in bars]}
    if any(bar and (bar.below or bar.above) for bar in bars):
        trace["error_y"] = {"type": "data", "symmetric": False,
                            "array": [bar.above if bar else None for bar in bars],
                            "arrayminus": [bar.below if bar else None for bar in bars]}
    return trace


def _stacked_trace(result: BenchResult, server: str, x: list[str], bars: list[Bar | None],
                   name: str) -> dict:
    """The second segment of the server's bars, lighter, on top of the first."""
    trace = server_trace(result, server, "bar", [_hover(bar) for bar in bars], x=x,
                         y=[bar.stacked if bar else None for bar in bars],
                         base=[bar.value if bar else None for bar in bars],
                         showlegend=False, opacity=0.45)
    trace["name"] = f"{trace['name']}: {name}"
    trace["marker"]["pattern"] = {"shape": "x"}
    return trace


def _hover(bar: Bar | None) -> str:
    return hover_lines(*bar.hover) if bar else ""


def _unmeasured_marks(result: BenchResult, x: list[str], cells: dict[str, list[Cell | None]],
                      bars: dict[str, list[Bar | None]]) -> list[dict]:
    """Per thread setting, the servers that draw nothing there and why, at the axis."""
    marks = []
    for index, label in enumerate(x):
        notes = [f"{result.label(server)}: {why}" for server, row in cells.items()
                 if (why := _why_not(row[index], bars[server][index]))]
        if notes:
            marks.append({"x": label, "y": 0, "yref": "paper", "yanchor": "bottom",
                          "text": "<br>".join(notes), "showarrow": False,
                          "bgcolor": "rgba(255,255,255,0.85)",
                          "font": {"color": FAILED_COLOR, "size": 11}})
    return marks


def _why_not(cell: Cell | None, bar: Bar | None) -> str | None:
    """Why a cell draws no bar ("failed", "not measured", "not sampled"); None when it
    draws one, or there is no such cell."""
    if cell is None or (bar is not None and bar.value is not None):
        return None
    if bar is not None:
        return "not sampled"
    if cell.status is CellStatus.NOT_APPLICABLE:
        return "not applicable"
    return "failed" if cell.status is CellStatus.FAILED else "not measured"


def _row(result: BenchResult, cell: Cell, bar: Bar | None, width: int) -> Row:
    head = (result.label(cell.server), str(cell.threads), str(cell.connections))
    figures = bar.row if bar else (MISSING,) * width
    return head + figures + (status_text(cell, result),)


def headline_text(result: BenchResult) -> str:
    """'500 connections' (the headline count), or '' for a run without one."""
    connections = headline_connections(result)
    return "" if connections is None else f"{connections} connections"
