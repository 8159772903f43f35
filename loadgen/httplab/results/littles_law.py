"""The bound that waiting sets on Requests/sec, by Little's law, for the workloads whose
handler waits (delay and blocking). Pure.

Little's law: requests in flight = rate × time each spends in the server, so a server that
holds every request for delay_ms completes at most (requests in flight) ÷ delay per second.
wrk keeps one request in flight per connection, so connections ÷ delay bounds every server
on both workloads; on blocking each request also holds a thread of the blocking pool for the
delay, so the pool's configured size ÷ delay bounds it too. The bound is the smaller."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import BenchResult, Cell, CellStatus, Workload
from httplab.results.stats import cell_summary

BLOCKING = "blocking"  # the workload that holds a pool thread while it waits
CONNECTIONS, POOL = "connections", "pool"  # what sets a bound


@dataclass(frozen=True)
class WaitBound:
    """What bounds one cell: its connections and, on blocking, its pool's threads, each
    over the delay."""

    delay_ms: int
    connections: int
    pool_threads: int | None = None  # blocking only, when the server reports its pool

    @property
    def connections_rate(self) -> float:
        """connections ÷ delay, in requests per second."""
        return rate_bound(self.connections, self.delay_ms)

    @property
    def pool_rate(self) -> float | None:
        """pool threads ÷ delay, in requests per second; None without a pool."""
        return None if self.pool_threads is None else rate_bound(self.pool_threads, self.delay_ms)

    @property
    def rate(self) -> float:
        """The bound: the smaller of the two."""
        pool = self.pool_rate
        return self.connections_rate if pool is None else min(self.connections_rate, pool)

    @property
    def set_by(self) -> str:
        """CONNECTIONS, or POOL when the pool's threads are fewer than the connections."""
        pool = self.pool_rate
        return POOL if pool is not None and pool < self.connections_rate else CONNECTIONS


def rate_bound(in_flight: int, delay_ms: int) -> float:
    """The most requests per second `in_flight` requests complete when each takes
    delay_ms: 500 connections at 10 ms -> 50,000."""
    return in_flight * 1000.0 / delay_ms


def wait_bound(workload: Workload, connections: int,
               pool_threads: int | None) -> WaitBound | None:
    """The bound of a workload at these connections; None for one that does not wait. The
    pool counts on blocking only: delay waits without a thread."""
    if not workload.waits or not workload.delay_ms:
        return None
    pool = pool_threads if workload.name == BLOCKING else None
    return WaitBound(workload.delay_ms, connections, pool)


def cell_wait_bound(cell: Cell, result: BenchResult) -> WaitBound | None:
    """The cell's bound, with its server's configured blocking pool."""
    record = result.server(cell.server)
    return wait_bound(cell.workload, cell.connections, record.blocking_pool if record else None)


def share_of_bound(cell: Cell, result: BenchResult) -> float | None:
    """The cell's median Requests/sec over its bound; None for a workload that does not
    wait and for a failed or unmeasured cell."""
    bound = cell_wait_bound(cell, result)
    if bound is None or cell.status is not CellStatus.OK or not cell.runs:
        return None
    return cell_summary(cell).median / bound.rate


def pool_threads_max(cell: Cell) -> int | None:
    """The most live threads of the blocking pool seen while any of the cell's runs was
    measured; None when not sampled."""
    return max((usage.pool_threads_max for usage in cell.resources
                if usage.pool_threads_max is not None), default=None)
