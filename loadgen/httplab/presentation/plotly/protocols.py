"""The cost ladder's chart (as result-protocols.png): per framework a bar per protocol, its
CPU per request at the common rate; beside it the same rungs as a table, with each ratio
against the first protocol and its interval, and why a protocol was not run."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.parts import base_layout, hover_lines, number, table
from httplab.presentation.views.protocol_ladder import Rung, ladder_protocols, ladder_rows
from httplab.presentation.wording.latency import rate_text, server_label
from httplab.presentation.wording.protocols import protocol_name, ratio_text

COLUMNS = ("Server", "Protocol", "CPU per request", "Against the first protocol", "TLS engine")


def protocols_chart(result: BenchResult) -> ChartSpec:
    protocols, rows = ladder_protocols(result), ladder_rows(result)
    labels = [server_label(result, row.base) for row in rows]
    traces = [{"type": "bar", "name": protocol_name(protocol), "x": labels,
               "y": [row.rungs[position].cost_us for row in rows],
               "hovertext": [hover_lines(f"{label}, {protocol_name(protocol)}",
                                         _rung_text(row.rungs[position]))
                             for label, row in zip(labels, rows)],
               "hoverinfo": "text"}
              for position, protocol in enumerate(protocols)]
    layout = base_layout("", "server CPU time per request (µs)", barmode="group")
    caption = (f"What each protocol costs each server at {rate_text(result.latency.cost_rate)} "
               f"req/s: its CPU time per request, median over rounds; the table gives each "
               f"ratio against {protocol_name(protocols[0])} with its interval over the "
               f"paired rounds.")
    rows_of_table = [(label, protocol_name(rung.protocol), number(rung.cost_us, 1, "µs"),
                      _rung_text(rung), ", ".join(row.tls_engines) or "—")
                     for label, row in zip(labels, rows) for rung in row.rungs]
    return ChartSpec("protocols", "What each protocol costs, at the common rate", caption,
                     {"data": traces, "layout": layout}, table(COLUMNS, rows_of_table))


def _rung_text(rung: Rung) -> str:
    if rung.not_applicable:
        return f"not applicable: {rung.not_applicable}"
    return "the base" if rung.ratio is None else ratio_text(rung.ratio)
