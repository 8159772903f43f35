"""What limited a cell, in one sentence, from the lab's own evidence: a saturated CPU
(results/bottleneck.py), else the Little's-law bound the executor in use sets on a waiting
workload (results/littles_law.py: the connections, with a thread per request, or the
pool's threads, or a cap the framework keeps on virtual threads at once), else, on a
database workload, the database connection pool. Pure.

The database pool bounds by Little's law too: at most db_pool queries run at once, so at
R requests per second each holds a connection at most db_pool ÷ R on average; the query's
own time is not measured from outside, so the sentence gives that ceiling, not the time."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.axes import VIRTUAL
from httplab.model import BenchResult, Cell, CellStatus
from httplab.results.bottleneck import Limit, cell_bottleneck
from httplab.results.littles_law import (CONNECTIONS, WaitBound, cell_wait_bound,
                                         share_of_bound)
from httplab.results.stats import cell_summary

# A cell at this share of its bound or more is held by it (wrk's own pauses between a
# response and the next request keep a held cell a little below the bound).
NEAR_BOUND = 0.85


@dataclass(frozen=True)
class CellLimit:
    """What limited one cell, and the bound's share reached where a bound applies."""

    sentence: str
    share_of_bound: float | None = None


def cell_limit(cell: Cell, result: BenchResult) -> CellLimit | None:
    """None for a cell without measured runs."""
    summary = cell_summary(cell)
    if summary is None or cell.status is not CellStatus.OK:
        return None
    bottleneck = cell_bottleneck(cell, result)
    bound = cell_wait_bound(cell, result)
    share = share_of_bound(cell, result)
    if bottleneck.limit not in (Limit.NONE, Limit.UNKNOWN):
        return CellLimit(bottleneck.words, share)
    record = result.server(cell.server)
    if bound is not None:
        virtual = record is not None and record.executor == VIRTUAL
        return CellLimit(wait_bound_sentence(bound, share or 0.0, virtual), share)
    if cell.workload.uses_database and record and record.db_pool:
        return CellLimit(database_pool_sentence(record.db_pool, summary.median))
    return CellLimit(bottleneck.words)


def wait_bound_sentence(bound: WaitBound, share: float, virtual: bool = False) -> str:
    """'bounded by the pool: 200 threads ÷ 10 ms = 20,000/s' when held by it (share at least
    NEAR_BOUND), else what the bound was and that waiting, not it, held the cell. On
    virtual threads a smaller bound than the connections is the framework's cap on the
    tasks it runs at once (Reactor's bounded elastic keeps one on virtual threads)."""
    if bound.set_by == CONNECTIONS:
        source = f"the connections, one request in flight each: {bound.connections} ÷"
    elif virtual:
        source = f"the cap on virtual threads at once: {bound.pool_threads} ÷"
    else:
        source = f"the pool: {bound.pool_threads} threads ÷"
    stated = f"{source} {bound.delay_ms} ms = {bound.rate:,.0f}/s"
    if share >= NEAR_BOUND:
        return f"bounded by {stated} ({share:.0%} reached)"
    return (f"no CPU saturated and {share:.0%} of its bound ({stated}): the waits and their "
            f"scheduling held it")


def database_pool_sentence(db_pool: int, requests_per_sec: float) -> str:
    """No CPU saturated on a database workload: the connection pool's share, by Little's law."""
    held_ms = db_pool / requests_per_sec * 1000 if requests_per_sec > 0 else float("inf")
    return (f"no CPU saturated: the database pool, {db_pool} connections, allows {db_pool} "
            f"queries at once, {held_ms:.2f} ms each at most at this rate")
