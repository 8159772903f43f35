"""What a finished make latency run prints in the terminal: each server's max sustainable
rate (results.md's first table, as plain text) and, when there was a common rate, what a
request cost each server there. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, RunKind
from httplab.presentation.views.latency_figures import common_rate_costs, latency_servers
from httplab.presentation.wording.formatting import MISSING, aligned_rows
from httplab.presentation.wording.latency import (broke_at_text, max_rate_text, rate_text,
                                                  rounds_text, server_label, slo_text)
from httplab.results.stats import median_of_known


def latency_summary_text(result: BenchResult) -> str:
    """The lines to print, ending in a newline; empty for a run that is not a latency run."""
    if result.kind is not RunKind.LATENCY:
        return ""
    latency = result.latency
    header = ("Framework", "Max sustainable rate", "Each round", "What broke it")
    rows = [(server_label(result, rate.server), max_rate_text(rate), rounds_text(rate),
             broke_at_text(rate)) for rate in latency.maxima]
    lines = [f"Max sustainable rate at {slo_text(latency.slo_p99_us)}, latency from each "
             f"request's due time ({latency.tool or 'the load tool'}):", "",
             *aligned_rows([header, *rows])]
    if latency.cost_rate is not None:
        lines += ["", _cost_line(result)]
    return "\n".join(lines) + "\n"


def common_rate_cost_text(result: BenchResult, server: str) -> str:
    """'30.0 µs': the server's CPU per request at the common rate, the median over rounds."""
    cost = median_of_known(common_rate_costs(result, server))
    return MISSING if cost is None else f"{cost:.1f} µs"


def _cost_line(result: BenchResult) -> str:
    """'Server CPU per request at 10,000 req/s: Netty 30.0 µs, ...' (medians over rounds)."""
    costs = [f"{server_label(result, server)} {common_rate_cost_text(result, server)}"
             for server in latency_servers(result)]
    return (f"Server CPU per request at the common rate, {rate_text(result.latency.cost_rate)} "
            f"req/s: {', '.join(costs)}")
