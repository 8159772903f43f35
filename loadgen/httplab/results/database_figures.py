"""The database's figures while a cell's runs were measured (db and queries workloads), as
results.md, results.csv, results.json and the charts show them. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import Cell, DatabaseUsage, WrkRun
from httplab.results.stats import median_of_known, per_request


@dataclass(frozen=True)
class DatabaseFigures:
    """The database's usage while a cell's runs were measured (db and queries workloads):
    medians over runs, the largest peak memory; per request over each run's requests."""

    cores: float | None
    cpu_us_per_request: float | None
    memory_peak_bytes: int | None
    context_switches: float | None
    context_switches_per_request: float | None
    unavailable: str | None


def database_figures(cell: Cell) -> DatabaseFigures | None:
    """None when no measured run of the cell has the database's usage beside it."""
    pairs = [(run, usage.database) for run, usage in zip(cell.runs, cell.resources)
             if usage.database is not None]
    if not pairs:
        return None
    usages = [database for _, database in pairs]
    peaks = [usage.memory_peak_bytes for usage in usages if usage.memory_peak_bytes is not None]
    reasons = dict.fromkeys(usage.unavailable for usage in usages if usage.unavailable)
    return DatabaseFigures(
        median_of_known(usage.cpu_cores for usage in usages),
        _database_per_request(pairs, "cpu_seconds", 1e6), max(peaks) if peaks else None,
        median_of_known(usage.context_switches for usage in usages),
        _database_per_request(pairs, "context_switches", 1.0), "; ".join(reasons) or None)


def _database_per_request(pairs: list[tuple[WrkRun, DatabaseUsage]], field: str,
                          scale: float) -> float | None:
    return median_of_known(per_request(getattr(usage, field), run.requests, scale)
                           for run, usage in pairs)
