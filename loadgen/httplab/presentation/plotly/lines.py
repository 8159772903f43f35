"""One workload's line charts: the concurrency sweep (result3.png: Requests/sec above, p99
below, over the connection counts, at the first thread setting) and per-connection fairness
(result4.png, h2load's socket readings). A point is hollow where its cell was not limited
by the server alone, as in the PNG charts; a failed cell leaves a gap."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, Workload
from httplab.presentation.wording.cells import fairness_label
from httplab.presentation.views.fairness import fairness_connections, rank_fractions
from httplab.presentation.views.sweep import SweepPoint, sweep_point
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.plotly.bars import HEAD
from httplab.presentation.plotly.bench import workload_suffix
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.parts import (FILLED, HOLLOW, Row, base_layout, drawn, hover_lines,
                                               number, percent, server_trace, status_text, table,
                                               unmeasured_note)
from httplab.presentation.views.points import (cell_at, connection_counts, measured,
                                               reference_servers, server_order, thread_settings)
from httplab.results.bottleneck import cell_bottleneck
from httplab.results.fairness import (SLOWEST_FRACTION, cell_fairness, fairness_run_for_chart,
                                       normalised_rates)

SWEEP_COLUMNS = ("Requests/sec", "Min–max", "p99 (ms)", "Limited by")
FAIRNESS_COLUMNS = ("h2load runs", "Max/min", "CV across connections",
                    f"Slowest {SLOWEST_FRACTION * 100:g} % share")
POINT_DIGITS = 4  # a fairness point's coordinates: far finer than a pixel
MARKED_UP_TO = 64  # connections: with fewer, each one gets a marker, as in result4.png


def sweep_chart(result: BenchResult, workload: Workload) -> ChartSpec:
    """Two panels sharing the connections axis (log): each server's two traces, one each."""
    threads, counts = thread_settings(result)[0], connection_counts(result)
    servers = server_order(result) + reference_servers(result)
    cells = {server: [cell_at(result, server, threads, count) for count in counts]
             for server in servers}
    points = {server: [sweep_point(cell, result) if measured(cell) else None for cell in row]
              for server, row in cells.items()}
    traces = [_sweep_trace(result, server, counts, cells[server], points[server], panel)
              for panel in (1, 2) for server in servers]
    rows = [_sweep_row(result, cell, point) for server in servers
            for cell, point in zip(cells[server], points[server]) if cell is not None]
    missing = [cell for row in cells.values() for cell in row if not measured(cell)]
    caption = (f"Requests/sec (above) and p99 latency (below, log scale) by connections, at "
               f"{threads} threads; the whiskers go from the slowest run to the fastest. A "
               "hollow point was not limited by the server alone; a failed cell leaves a gap.")
    return ChartSpec(
        f"sweep-{workload.key}",
        f"Requests/sec and p99 latency by connections, {threads} threads"
        f"{workload_suffix(workload)}",
        " ".join(filter(None, (caption, unmeasured_note(result, missing)))),
        {"data": drawn(traces), "layout": _sweep_layout(counts)},
        table(HEAD + SWEEP_COLUMNS + ("Status",), rows))


def _sweep_trace(result: BenchResult, server: str, counts: list[int],
                 cells: list[Cell | None], points: list[SweepPoint | None], panel: int) -> dict:
    """Panel 1: Requests/sec with its spread; panel 2: p99 in ms, out of the legend."""
    hover = [hover_lines(*_sweep_hover(result, cell, point)) if point else ""
             for cell, point in zip(cells, points)]
    values = [None if point is None else point.rate.median if panel == 1 else point.p99_ms
              for point in points]
    trace = server_trace(result, server, "scatter", hover, x=counts, y=values,
                         mode="lines+markers", connectgaps=False,
                         xaxis=f"x{panel if panel > 1 else ''}",
                         yaxis=f"y{panel if panel > 1 else ''}", showlegend=panel == 1)
    trace["marker"] |= {"size": 8, "symbol": [FILLED if point and point.server_limited
                                              else HOLLOW for point in points]}
    if panel == 1 and any(point and point.rate.n > 1 for point in points):
        trace["error_y"] = {"type": "data", "symmetric": False,
                            "array": [p and p.rate.maximum - p.rate.median for p in points],
                            "arrayminus": [p and p.rate.median - p.rate.minimum
                                           for p in points]}
    return trace


def _sweep_hover(result: BenchResult, cell: Cell, point: SweepPoint) -> tuple[str | None, ...]:
    rate = point.rate
    return (f"{cell.connections} connections, {cell.threads} threads",
            f"Requests/sec: {number(rate.median)}"
            + (f" (median of {rate.n} runs)" if rate.n > 1 else ""),
            f"min–max: {number(rate.minimum)}–{number(rate.maximum)} req/s"
            if rate.n > 1 else None,
            f"p99: {number(point.p99_ms, 2, 'ms')}", cell_bottleneck(cell, result).words)


def _sweep_row(result: BenchResult, cell: Cell, point: SweepPoint | None) -> Row:
    head = (result.label(cell.server), str(cell.threads), str(cell.connections))
    if point is None:
        return head + (MISSING,) * len(SWEEP_COLUMNS) + (status_text(cell, result),)
    rate = point.rate
    spread = f"{number(rate.minimum)}–{number(rate.maximum)}" if rate.n > 1 else MISSING
    return head + (number(rate.median), spread, number(point.p99_ms, 2),
                   cell_bottleneck(cell, result).words, status_text(cell, result))


def _sweep_layout(counts: list[int]) -> dict:
    connections = {"type": "log", "tickvals": counts, "ticktext": [str(c) for c in counts]}
    layout = base_layout("", "Requests/sec (higher is better)", height=640)
    layout["xaxis"] = connections | {"anchor": "y", "matches": "x2", "showticklabels": False}
    layout["xaxis2"] = connections | {"anchor": "y2", "title": {"text": "connections (log scale)"}}
    layout["yaxis"] |= {"domain": [0.55, 1.0]}
    layout["yaxis2"] = {"domain": [0.0, 0.45], "type": "log",
                        "title": {"text": "p99 latency (ms, log scale)"}}
    return layout


def fairness_chart(result: BenchResult, workload: Workload) -> ChartSpec:
    """Each cell's connections, slowest first, each one's requests over the mean of all."""
    connections, threads = fairness_connections(result), thread_settings(result)[0]
    servers = server_order(result) + reference_servers(result)
    cells = [cell for cell in (cell_at(result, s, threads, connections) for s in servers)
             if cell is not None and fairness_run_for_chart(cell) is not None]
    layout = base_layout("connections, slowest to fastest (rank as a fraction of all)",
                         "requests / mean of all connections")
    layout["shapes"] = [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 1, "y1": 1,
                         "line": {"color": "black", "dash": "dot", "width": 1}}]
    repeats = (" Of a cell's h2load runs, the one with the median max/min is drawn; the "
               "table's figures are medians over its runs." if any(
                   len(cell.fairness) > 1 for cell in cells) else "")
    return ChartSpec(
        f"fairness-{workload.key}",
        f"Per-connection fairness, h2load, {connections} connections"
        f"{workload_suffix(workload)}, after wrk at {threads} threads",
        "How evenly each server shared itself among its connections: flat at 1 (dotted) is "
        "fair, a steep start means starved connections. Requests are counted between two "
        f"readings of the client sockets during h2load's run.{repeats}",
        {"data": [_fairness_trace(result, cell) for cell in cells], "layout": layout},
        table(HEAD + FAIRNESS_COLUMNS, [_fairness_row(result, cell) for cell in cells]))


def _fairness_trace(result: BenchResult, cell: Cell) -> dict:
    """Its points rounded (a cell has up to thousands), the hover one template for all."""
    rates = normalised_rates(fairness_run_for_chart(cell))
    summary = fairness_label(result.label(cell.server), cell_fairness(cell))
    hover = (f"connection at %{{x:.0%}} of {len(rates)}, slowest first<br>"
             f"requests / mean: %{{y:.2f}}<br>{hover_lines(summary)}")
    mode = "lines+markers" if len(rates) <= MARKED_UP_TO else "lines"
    return server_trace(result, cell.server, "scatter", hover, mode=mode,
                        x=[round(x, POINT_DIGITS) for x in rank_fractions(len(rates))],
                        y=[round(y, POINT_DIGITS) for y in rates])


def _fairness_row(result: BenchResult, cell: Cell) -> Row:
    figures = cell_fairness(cell)
    spread = MISSING if figures is None else (
        "∞" if figures.spread == float("inf") else f"{figures.spread:.2f}")
    return (result.label(cell.server), str(cell.threads), str(cell.connections),
            str(len(cell.fairness)), spread, percent(figures and figures.cv),
            percent(figures and figures.slowest_share))
