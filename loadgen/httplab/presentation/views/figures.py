"""What a cell's table row shows when it has several measured runs. Pure.

Rates and latencies are the median over runs (each metric on its own), error counts are
summed over runs, CPU is the median and peak memory the largest seen (the database's, for
db and queries: results/database_figures.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from httplab.model import BenchResult, Cell, ResourceUsage, SocketErrors, WrkRun
from httplab.results.foreign_cpu import cell_foreign_cores
from httplab.results.host_load import longest_stall_us
from httplab.results.stats import Summary, cell_summary, median_of_known, per_request


@dataclass(frozen=True)
class CellFigures:
    requests_per_sec: Summary
    successful_requests_per_sec: float
    latency_mean_us: float | None
    latency_stdev_us: float | None
    latency_max_us: float | None
    latency_p50_us: float | None
    latency_p99_us: float | None
    latency_p999_us: float | None
    transfer_per_sec: float
    errors: SocketErrors
    non_2xx_3xx: int
    cpu_cores: float | None
    memory_peak_bytes: int | None
    memory_mean_bytes: float | None
    resources_unavailable: str | None
    cpu_us_per_request: float | None = None  # the server's CPU time per completed request
    context_switches_per_request: float | None = None
    threads_max: int | None = None
    loadgen_cores: float | None = None
    host_busy_cores: float | None = None
    foreign_cores: float | None = None  # the host's busy cores no part of the run used
    longest_stall_us: float | None = None  # the host's, over the cell's runs (stall meter)
    involuntary_switches_per_request: float | None = None  # of context_switches_per_request


def _over_runs(runs: tuple[WrkRun, ...], metric: Callable[[WrkRun], float | None]) -> float | None:
    return median_of_known(metric(run) for run in runs)


def _summed_errors(runs: tuple[WrkRun, ...]) -> SocketErrors:
    return SocketErrors(*(sum(getattr(run.errors, kind) for run in runs)
                          for kind in ("connect", "read", "write", "timeout")))


def _unavailable(usages: tuple[ResourceUsage, ...]) -> str | None:
    reasons = dict.fromkeys(usage.unavailable for usage in usages if usage.unavailable)
    return "; ".join(reasons) or (None if usages else "not sampled")


def cell_figures(cell: Cell) -> CellFigures | None:
    """None for a cell without measured runs."""
    summary = cell_summary(cell)
    if summary is None:
        return None
    runs, usages = cell.runs, cell.resources
    peaks = [usage.memory_peak_bytes for usage in usages if usage.memory_peak_bytes is not None]
    return CellFigures(
        summary, _over_runs(runs, lambda run: run.successful_requests_per_sec),
        _over_runs(runs, lambda run: run.latency.mean_us),
        _over_runs(runs, lambda run: run.latency.stdev_us),
        _over_runs(runs, lambda run: run.latency.max_us),
        _over_runs(runs, lambda run: run.latency.percentile(50.0)),
        _over_runs(runs, lambda run: run.latency.percentile(99.0)),
        _over_runs(runs, lambda run: run.latency.percentile(99.9)),
        _over_runs(runs, lambda run: run.transfer_per_sec),
        _summed_errors(runs), sum(run.non_2xx_3xx for run in runs),
        median_of_known(usage.cpu_cores for usage in usages), max(peaks) if peaks else None,
        median_of_known(usage.memory_mean_bytes for usage in usages), _unavailable(usages),
        _per_request(runs, usages, "cpu_seconds", 1e6),
        _per_request(runs, usages, "context_switches", 1.0),
        max((u.threads_max for u in usages if u.threads_max is not None), default=None),
        median_of_known(usage.loadgen_cores for usage in usages),
        median_of_known(usage.host_busy_cores for usage in usages), cell_foreign_cores(cell),
        longest_stall_us(cell.host_stalls), _per_request(runs, usages, "involuntary_switches", 1.0))


def _per_request(runs: tuple[WrkRun, ...], usages: tuple[ResourceUsage, ...], field: str,
                 scale: float) -> float | None:
    """The median over runs of a resource total divided by that run's completed requests."""
    return median_of_known(per_request(getattr(usage, field), run.requests, scale)
                           for run, usage in zip(runs, usages))


def measures_database(result: BenchResult) -> bool:
    """Whether any cell's workload reads the database: its exports carry its figures."""
    return any(cell.workload.uses_database for cell in result.cells)
