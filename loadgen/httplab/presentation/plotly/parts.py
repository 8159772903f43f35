"""What every interactive chart of a page shares: each server's colour and trace (one trace
is one server, named by its label, grouped by its key, so the page's toggles show or hide a
framework in every chart at once), the hover text, a layout, and the table beside it. Pure:
Plotly's figures as plain dicts, drawn by static/charts.js."""

from __future__ import annotations

from httplab.model import BenchResult, Cell
from httplab.presentation.wording.cells import cell_status
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.plotly.model import FigureTable
from httplab.presentation.views.latency_figures import run_steps

# Plotly's own colours (matplotlib's C0, C1, ... of the PNG charts) but grey, which is the
# reference server's, as the PNG charts draw the ceiling.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#bcbd22", "#17becf")
CEILING_COLOR = "#7f7f7f"
FAILED_COLOR = "#cf222e"  # report.css's --bad
HATCH = "/"  # a bar whose verdict is not "server", as the PNG charts hatch it
HOLLOW, FILLED = "circle-open", "circle"
HEIGHT_PX = 420  # set, not left to autosize, so that printing keeps it (the width follows the page)
FONT = {"family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "size": 12}
Row = tuple[str, ...]


def server_colors(result: BenchResult) -> dict[str, str]:
    """Each server's colour, the same in every chart of the page: the frameworks in the
    order the run lists them, the reference grey."""
    names = [server.name for server in result.servers]
    names += [name for name in _servers_with_data(result) if name not in names]
    frameworks = [name for name in names if not _is_reference(result, name)]
    colors = {name: PALETTE[index % len(PALETTE)] for index, name in enumerate(frameworks)}
    return colors | {name: CEILING_COLOR for name in names if _is_reference(result, name)}


def _servers_with_data(result: BenchResult) -> list[str]:
    return list(dict.fromkeys([cell.server for cell in result.cells]
                              + [step.server for step in run_steps(result)]))


def _is_reference(result: BenchResult, server: str) -> bool:
    record = result.server(server)
    return record is not None and record.is_reference


def server_trace(result: BenchResult, server: str, kind: str, hover: list[str] | str,
                 **fields: object) -> dict:
    """One server's trace: its label, its key as the group the toggles act on, its colour,
    and its hover after its name: per point (lines joined by <br>), or one template for
    all its points (a long line of points, e.g. fairness's connections)."""
    color = server_colors(result).get(server, CEILING_COLOR)
    body = hover if isinstance(hover, str) else "%{customdata}"
    trace = {"type": kind, "name": result.label(server), "legendgroup": server,
             "hovertemplate": f"<b>{_plain(result.label(server))}</b><br>{body}<extra></extra>"}
    if not isinstance(hover, str):
        trace["customdata"] = hover
    if kind == "bar":
        trace["marker"] = {"color": color}
    else:
        trace["line"] = {"color": color, "dash": "dash" if _is_reference(result, server)
                         else "solid"}
        trace["marker"] = {"color": color}
    return trace | fields


def _plain(text: str) -> str:
    """A label inside a hover template: no template of its own, no markup."""
    return (text.replace("%{", "% {").replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def hover_lines(*lines: str | None) -> str:
    """A point's hover text: the lines that are there, one under another."""
    return "<br>".join(_plain(line) for line in lines if line)


def drawn(traces: list[dict]) -> list[dict]:
    """The traces with a point or bar to draw: a server none of whose cells was measured
    draws nothing (it is named under the chart and its status is in the table)."""
    return [trace for trace in traces if any(value is not None for value in trace["y"])]


def base_layout(x_title: str, y_title: str, **fields: object) -> dict:
    """Axes titled, the legend on top, hover per point, its height fixed."""
    layout = {"font": FONT, "height": HEIGHT_PX, "margin": {"l": 70, "r": 20, "t": 30, "b": 60},
              "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
              "hovermode": "closest", "showlegend": True, "xaxis": {"title": {"text": x_title}},
              "yaxis": {"title": {"text": y_title}, "rangemode": "tozero"}}
    return layout | fields


def unmeasured_note(result: BenchResult, cells: list[Cell | None]) -> str | None:
    """The caption's note on cells that draw nothing: 'Not drawn: Undertow t5 (failed)'."""
    notes = [f"{result.label(cell.server)} t{cell.threads} c{cell.connections} "
             f"({cell.status.value})" for cell in cells if cell is not None]
    return f"Not drawn: {', '.join(notes)}." if notes else None


def status_text(cell: Cell | None, result: BenchResult) -> str:
    """'ok', 'failed: why', or '—' where there is no cell."""
    return MISSING if cell is None else cell_status(cell, result)


def table(columns: tuple[str, ...], rows: list[Row]) -> FigureTable:
    return FigureTable(columns, tuple(rows))


def number(value: float | None, digits: int = 0, unit: str = "") -> str:
    """12345.6 -> '12,346'; with a unit, '12,346 µs'; '—' when unknown."""
    if value is None:
        return MISSING
    return f"{value:,.{digits}f}" + (f" {unit}" if unit else "")


def percent(share: float | None, digits: int = 1) -> str:
    return MISSING if share is None else f"{share * 100:.{digits}f} %"
