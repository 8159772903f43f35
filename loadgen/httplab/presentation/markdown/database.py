"""What results.md adds for the workloads that read the database (db and queries): the
database beside each server (its CPU next to the server's, its memory and context switches,
and the verdict in words; its CPU per request is among the server's under "Where the CPU
went"), each framework's driver and pool of database connections once,
and the database as run in the run's line. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, Workload
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.views.figures import cell_figures
from httplab.presentation.wording.formatting import (MISSING, format_bytes, format_duration_us,
                                                     format_rate)
from httplab.results.bottleneck import cell_bottleneck
from httplab.results.database_figures import DatabaseFigures, database_figures

DATABASE_INTRO = ("The database beside each server (one PostgreSQL, started afresh for each "
                  "server; its CPU counts in \"Host busy\" too; the rule of \"Limited by\" is in "
                  "docs/method.md, \"Bottlenecks\"):")
DATABASE_HEADER = ("Framework", "Threads", "Connections", "Requests/sec", "Server CPU (cores)",
                   "Database CPU (cores)", "Database memory peak",
                   "Database context switches per request", "Limited by")
POOL_INTRO = "Each framework's database driver and pool, as the server configured it:"
POOL_HEADER = ("Framework", "Driver", "Pool (connections)")
# Where the CPU went: the database's columns, before the verdict, when a cell has them.
DATABASE_CPU_HEADER = ("Database CPU (cores)", "Database CPU per request")


def database_tables(result: BenchResult, workload: Workload) -> list[str]:
    """The database's table and the frameworks' pools; none for a workload that does not
    read the database."""
    if not workload.uses_database:
        return []
    rows = [_database_row(result, cell) for cell in result.cells]
    return [DATABASE_INTRO, "", *markdown_table(DATABASE_HEADER, rows), "",
            POOL_INTRO, "", *markdown_table(POOL_HEADER, _pool_rows(result))]


def _database_row(result: BenchResult, cell: Cell) -> tuple[str, ...]:
    head = (result.label(cell.server), str(cell.threads), str(cell.connections))
    figures, database = cell_figures(cell), database_figures(cell)
    verdict = cell_bottleneck(cell, result)
    if figures is None:
        return head + (MISSING,) * (len(DATABASE_HEADER) - 4) + (verdict.words,)
    return head + (format_rate(figures.requests_per_sec.median), _cores(figures.cpu_cores),
                   *_database_columns(database), verdict.words)


def _database_columns(database: DatabaseFigures | None) -> tuple[str, ...]:
    """Its cores, peak memory and context switches per request (its CPU per request is
    under "Where the CPU went")."""
    if database is None:
        return (MISSING,) * 3
    switches = database.context_switches_per_request
    return (_cores(database.cores), format_bytes(database.memory_peak_bytes),
            MISSING if switches is None else f"{switches:.2f}")


def database_cpu_columns(cell: Cell) -> tuple[str, ...]:
    """The cell's values under DATABASE_CPU_HEADER."""
    database = database_figures(cell)
    if database is None:
        return (MISSING,) * len(DATABASE_CPU_HEADER)
    return _cores(database.cores), format_duration_us(database.cpu_us_per_request)


def _pool_rows(result: BenchResult) -> list[tuple[str, ...]]:
    """One row per framework with cells in this workload, in the order of the servers."""
    measured = {cell.server for cell in result.cells}
    return [(record.label, record.db_driver or MISSING,
             MISSING if record.db_pool is None else str(record.db_pool))
            for record in result.servers if record.name in measured]


def _cores(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}"
