"""What a run's page adds when it chose the protocol each server spoke (PROTOCOL): a
latency run's cost ladder, each framework's CPU per request at the common rate over each
protocol, against the first protocol asked with its interval (and, with KEEPALIVE=0, what
one TLS handshake costs); a bench's cells by workload with the protocol and TLS engine the
server said, the tool and its streams. Pure."""

from __future__ import annotations

from httplab.axes import H1, HTTP2_PROTOCOLS
from httplab.model import BenchResult, Cell, Workload
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.views.figures import cell_figures
from httplab.presentation.views.protocol_ladder import (Rung, chose_protocol, ladder_protocols,
                                                       ladder_rows, shows_handshakes)
from httplab.presentation.wording.formatting import MISSING, format_duration_us, format_rate
from httplab.presentation.wording.latency import rate_text, server_label
from httplab.presentation.wording.protocols import PROTOCOL_NAMES, protocol_name, ratio_text

LADDER_INTRO = ("What each protocol costs each server (PROTOCOL): its CPU time per request at "
                "the common rate {rate} req/s, median over rounds, and against {base} the "
                "ratio of medians with its 95 % interval over the paired rounds; the TLS "
                "engine as the server said it ran. See docs/method.md, \"Protocols\":")
HANDSHAKE_INTRO = ("KEEPALIVE=0: every request opened a connection of its own, so CPU per "
                   "request holds a TCP connection's set-up and, over TLS, a full handshake. "
                   "Per TLS handshake: h1-tls's CPU per request less h1's (medians).")
BENCH_INTRO = ("The protocol each server spoke (PROTOCOL), as it said and as the check before "
               "load saw on the wire, its TLS engine, and the load: wrk over HTTP/1.1, h2load "
               "over HTTP/2 with {streams} stream(s) in flight per connection. See "
               "docs/method.md, \"Protocols\":")
BENCH_HEADER = ("Server", "Protocol", "TLS engine", "Load", "Requests/sec", "Latency p99",
                "CPU per request")


def protocol_ladder(result: BenchResult) -> list[str]:
    """A latency run's ladder, after a blank line; none for a run that chose no protocol
    or measured no common rate."""
    protocols, rows = ladder_protocols(result), ladder_rows(result)
    if not rows:
        return []
    handshakes = shows_handshakes(result)
    header = ("Server", "TLS engine", *(PROTOCOL_NAMES[one] for one in protocols),
              *(["CPU per TLS handshake"] if handshakes else []))
    table = [(server_label(result, row.base), ", ".join(row.tls_engines) or MISSING,
              *(_rung_text(rung) for rung in row.rungs),
              *([_us_or_missing(row.handshake_us)] if handshakes else [])) for row in rows]
    intro = LADDER_INTRO.format(rate=rate_text(result.latency.cost_rate),
                                base=PROTOCOL_NAMES[protocols[0]])
    keepalive = [] if result.settings.keepalive else ["", HANDSHAKE_INTRO]
    return ["", intro, *keepalive, "", *markdown_table(header, table)]


def _rung_text(rung: Rung) -> str:
    if rung.not_applicable:
        return f"not applicable: {rung.not_applicable}"
    if rung.cost_us is None or rung.ratio is None:
        return _us_or_missing(rung.cost_us)
    return f"{format_duration_us(rung.cost_us)} ({ratio_text(rung.ratio)})"


def _us_or_missing(value: float | None) -> str:
    return MISSING if value is None else format_duration_us(value)


def protocol_table(result: BenchResult, workload: Workload) -> list[str]:
    """A bench workload's table; none for a run that chose no protocol."""
    if not chose_protocol(result):
        return []
    rows = [_cell_row(result, cell) for cell in result.cells if cell.workload == workload]
    return [BENCH_INTRO.format(streams=result.settings.streams), "",
            *markdown_table(BENCH_HEADER, rows)]


def _cell_row(result: BenchResult, cell: Cell) -> tuple[str, ...]:
    record = result.server(cell.server)
    protocol = (record.protocol if record else None) or H1
    head = (result.label(cell.server), protocol_name(protocol),
            (record.tls_engine if record else None) or MISSING,
            _load_text(protocol, cell, result.settings.streams))
    figures = cell_figures(cell)
    if figures is None:
        return head + (MISSING, MISSING, cell.reason or cell.status.value)
    return head + (format_rate(figures.requests_per_sec.median),
                   format_duration_us(figures.latency_p99_us),
                   format_duration_us(figures.cpu_us_per_request))


def _load_text(protocol: str, cell: Cell, streams: int) -> str:
    if protocol in HTTP2_PROTOCOLS:
        return f"h2load -t{cell.threads} -c{cell.connections} -m{streams}"
    return f"wrk -t{cell.threads} -c{cell.connections}"
