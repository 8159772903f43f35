"""What results.md adds for a run with workloads other than plaintext: each workload's
heading, the reference's "not applicable" row, and for the waiting workloads the bound
waiting sets beside each rate (results/littles_law.py) with its rule. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, Workload
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.wording.formatting import MISSING, format_rate
from httplab.results.littles_law import (BLOCKING, POOL, cell_wait_bound, pool_threads_max,
                                         share_of_bound)
from httplab.results.stats import cell_summary
from httplab.presentation.wording.workloads import NOT_APPLICABLE
from httplab.workloads import answers

BOUND_INTRO = "The bound waiting sets on each rate (Little's law; the rule is under the table):"
DELAY_BOUND_HEADER = ("Framework", "Threads", "Connections", "Requests/sec",
                      "Bound: connections ÷ delay", "Share of bound")
BLOCKING_BOUND_HEADER = ("Framework", "Threads", "Connections", "Requests/sec",
                         "Connections ÷ delay", "Blocking pool: configured / live max",
                         "Pool threads ÷ delay", "Bound", "Share of bound")


def not_applicable_servers(result: BenchResult, workload: Workload) -> list[tuple[str, str]]:
    """(label, why) for each server of the run that has no endpoint for this workload:
    nginx, the reference, has none that waits. Not a failure: it was never asked."""
    return [(record.label, f"{NOT_APPLICABLE}: {record.framework} has no /{workload.name} "
                           "endpoint")
            for record in result.servers if not answers(workload, record.is_reference)]


def bound_table(result: BenchResult, workload: Workload) -> list[str]:
    """The intro, the table and the rule under it; none for a workload that does not wait."""
    if not workload.waits:
        return []
    blocking = workload.name == BLOCKING
    header = BLOCKING_BOUND_HEADER if blocking else DELAY_BOUND_HEADER
    rows = [_bound_row(result, cell, blocking) for cell in result.cells]
    return [BOUND_INTRO, "", *markdown_table(header, rows), "", bound_rule(workload)]


def bound_rule(workload: Workload) -> str:
    """The rule in one sentence, under the table."""
    wait = f"{workload.delay_ms} ms"
    if workload.name == BLOCKING:
        return (f"wrk keeps one request in flight per connection and each holds a thread of "
                f"the server's blocking pool for {wait}, so a server completes at most the "
                f"smaller of connections ÷ {wait} and pool threads ÷ {wait} requests per second "
                "(the pool as configured; live max: the most of its threads seen while "
                "measured; see docs/method.md, \"Workloads\").")
    return (f"wrk keeps one request in flight per connection and each waits {wait}, so a "
            f"server completes at most connections ÷ {wait} requests per second (see "
            "docs/method.md, \"Workloads\").")


def _bound_row(result: BenchResult, cell: Cell, blocking: bool) -> tuple[str, ...]:
    bound = cell_wait_bound(cell, result)
    summary = cell_summary(cell)
    share = share_of_bound(cell, result)
    head = (result.label(cell.server), str(cell.threads), str(cell.connections),
            MISSING if summary is None or share is None else format_rate(summary.median))
    share_text = MISSING if share is None else f"{share:.0%}"
    if not blocking:
        return head + (format_rate(bound.connections_rate), share_text)
    pool = (MISSING if bound.pool_threads is None else str(bound.pool_threads),
            MISSING if pool_threads_max(cell) is None else str(pool_threads_max(cell)))
    set_by = " (pool)" if bound.set_by == POOL else " (connections)"
    return head + (format_rate(bound.connections_rate), " / ".join(pool),
                   MISSING if bound.pool_rate is None else format_rate(bound.pool_rate),
                   format_rate(bound.rate) + set_by, share_text)
