"""What a run's page adds when it chose the protocol each server spoke (PROTOCOL): a
latency run's cost ladder, each framework's CPU per request at the common rate over each
protocol, against the first protocol asked with its interval (and, with KEEPALIVE=0, what
one TLS handshake costs); a bench's cells by workload with the protocol and TLS engine the
server said, the tool and its streams. Pure."""

from __future__ import annotations

from httplab.axes import H1, H1_TLS, HTTP2_PROTOCOLS, PROTOCOL, Variant
from httplab.model import BenchResult, Cell, Workload
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.views.figures import cell_figures
from httplab.presentation.views.latency_figures import common_rate_costs, latency_servers
from httplab.presentation.wording.formatting import MISSING, format_duration_us, format_rate
from httplab.presentation.wording.latency import rate_text, server_label
from httplab.results.paired_ratio import PairedRatio, paired_ratio
from httplab.results.stats import median_of_known
from httplab.results.variants import costs_by_round

PROTOCOL_NAMES = {H1: "HTTP/1.1", H1_TLS: "HTTP/1.1 over TLS", "h2c": "HTTP/2 cleartext",
                  "h2": "HTTP/2 over TLS"}
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


def chose_protocol(result: BenchResult) -> bool:
    return bool(result.settings and result.settings.protocols)


def protocol_ladder(result: BenchResult) -> list[str]:
    """A latency run's ladder, after a blank line; none for a run that chose no protocol
    or measured no common rate."""
    protocols = result.settings.protocols if result.settings else ()
    if not protocols or result.latency.cost_rate is None:
        return []
    rows = [_ladder_row(result, base, protocols) for base in _ladder_bases(result)]
    handshake = [] if result.settings.keepalive else ["", HANDSHAKE_INTRO]
    header = ("Server", "TLS engine", *(PROTOCOL_NAMES[one] for one in protocols),
              *([] if result.settings.keepalive or H1_TLS not in protocols
                else ["CPU per TLS handshake"]))
    intro = LADDER_INTRO.format(rate=rate_text(result.latency.cost_rate),
                                base=PROTOCOL_NAMES[protocols[0]])
    return ["", intro, *handshake, "", *markdown_table(header, rows)] if rows else []


def _ladder_bases(result: BenchResult) -> list[str]:
    """Each server's key at the first protocol asked, once, in the order they ran."""
    first = result.settings.protocols[0]
    return list(dict.fromkeys(Variant.of_key(server).on_axis(PROTOCOL.setting, first).key
                              for server in latency_servers(result)))


def _ladder_row(result: BenchResult, base: str, protocols: tuple[str, ...]) -> tuple[str, ...]:
    keys = [Variant.of_key(base).on_axis(PROTOCOL.setting, one).key for one in protocols]
    cells = [_ladder_cell(result, base, key) for key in keys]
    row = (server_label(result, base), _tls_engines(result, keys), *cells)
    if result.settings.keepalive or H1_TLS not in protocols or H1 not in protocols:
        return row
    return row + (_handshake_cost(result, keys[protocols.index(H1)],
                                  keys[protocols.index(H1_TLS)]),)


def _ladder_cell(result: BenchResult, base: str, key: str) -> str:
    record = result.server(key)
    if record is not None and record.not_applicable:
        return f"not applicable: {record.not_applicable}"
    cost = median_of_known(common_rate_costs(result, key))
    if cost is None:
        return MISSING
    if key == base:
        return format_duration_us(cost)
    return f"{format_duration_us(cost)} ({_ratio_text(_cost_ratio(result, base, key))})"


def _cost_ratio(result: BenchResult, base: str, key: str) -> PairedRatio:
    return paired_ratio(costs_by_round(result, base), costs_by_round(result, key))


def _ratio_text(ratio: PairedRatio) -> str:
    if ratio.ratio is None:
        return MISSING
    if not ratio.has_interval:
        return f"{ratio.ratio:.2f}×; {ratio.rounds} paired round(s), too few for an interval"
    return f"{ratio.ratio:.2f}×, {ratio.low:.2f}–{ratio.high:.2f}"


def _handshake_cost(result: BenchResult, plain: str, tls: str) -> str:
    plain_cost = median_of_known(common_rate_costs(result, plain))
    tls_cost = median_of_known(common_rate_costs(result, tls))
    if plain_cost is None or tls_cost is None:
        return MISSING
    return format_duration_us(tls_cost - plain_cost)


def _tls_engines(result: BenchResult, keys: list[str]) -> str:
    """The TLS engines the server's TLS variants said they ran (jdk, openssl), once each."""
    engines = [record.tls_engine for key in keys if (record := result.server(key))
               and record.tls_engine not in (None, "none")]
    return ", ".join(dict.fromkeys(engines)) or MISSING


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
    head = (result.label(cell.server), PROTOCOL_NAMES.get(protocol, protocol),
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
