"""The concurrency sweep as points: per server at the first thread setting, each connection
count's Requests/sec over runs, median p99 and whether the server alone limited it. Drawn by
png/sweep.py and plotly/lines.py. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import BenchResult, Cell
from httplab.presentation.views.figures import cell_figures
from httplab.results.bottleneck import Limit, cell_bottleneck
from httplab.results.stats import Summary, cell_summary


@dataclass(frozen=True)
class SweepPoint:
    """One measured cell of a line: its Requests/sec over runs, median p99, and verdict."""

    rate: Summary
    p99_ms: float | None
    server_limited: bool


def sweep_point(cell: Cell, result: BenchResult) -> SweepPoint:
    p99_us = cell_figures(cell).latency_p99_us
    return SweepPoint(cell_summary(cell), None if p99_us is None else p99_us / 1000,
                      server_limited(cell, result))


def server_limited(cell: Cell, result: BenchResult) -> bool:
    """Whether the cell's verdict (results/bottleneck.py) is "server"; when it is not, the
    figure understates the server or its limit is unknown, and the chart says so."""
    return cell_bottleneck(cell, result).limit is Limit.SERVER
