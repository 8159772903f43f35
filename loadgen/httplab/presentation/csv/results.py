"""The results table as CSV, in base units (µs, bytes, bytes/s) for spreadsheets and scripts.
Figures are as in results.md: medians over a cell's runs, error counts summed. Every row
names its workload (its key, name and delay_ms, empty but for delay and blocking). The
generators column is always there (1 for wrk on one machine). The fairness columns (h2load's
runs) are fractions like the CV, empty when h2load did not run; an infinite spread is "inf".
A run with a workload that reads the database (db, queries) ends every row with the
database's columns: the rows per request of queries, the database's figures while the
cell was measured, and the server's pool and driver of database connections. A run with
profiles (PROFILE=1) ends every row with the profile's columns (csv/profile.py),
empty for a cell that was not profiled."""

from __future__ import annotations

import csv
import io
import math

from httplab.presentation.views.figures import CellFigures, cell_figures, measures_database
from httplab.model import BenchResult, Cell, RunKind
from httplab.presentation.wording.cells import generator_count, run_notes, server_log
from httplab.presentation.csv.latency import render_latency_csv
from httplab.presentation.csv.profile import profile_header, profile_values
from httplab.presentation.views.profile_figures import has_profiles, layer_order
from httplab.results.bottleneck import cell_bottleneck
from httplab.results.ceiling import ceiling_share
from httplab.results.fairness import cell_fairness
from httplab.results.littles_law import (cell_wait_bound, pool_threads_max,
                                         share_of_bound)
from httplab.run_layout import RESULTS_CSV
from httplab.results.database_figures import database_figures

# The bound waiting sets (results/littles_law.py), for delay and blocking cells only; the
# pool's figures on blocking only.
BOUND_COLUMNS = ("bound_requests_per_sec", "bound_set_by", "share_of_bound",
                 "connections_bound_requests_per_sec", "pool_bound_requests_per_sec",
                 "blocking_pool", "blocking_pool_threads_max")
HEADER = ("framework", "server", "workload", "workload_name", "delay_ms", "threads",
          "connections", "generators", "runs",
          "requests_per_sec",
          "requests_per_sec_min", "requests_per_sec_max", "requests_per_sec_cv",
          "successful_requests_per_sec", "latency_avg_us", "latency_stdev_us",
          "latency_max_us", "latency_p50_us", "latency_p99_us", "latency_p99_9_us",
          "transfer_bytes_per_sec", "socket_errors_connect", "socket_errors_read",
          "socket_errors_write", "socket_errors_timeout", "non_2xx_3xx", "cpu_cores",
          "memory_peak_bytes", "memory_mean_bytes", "resources_unavailable",
          "share_of_ceiling", "cpu_us_per_request", "context_switches_per_request",
          "involuntary_switches_per_request", "server_threads",
          "loadgen_cores", "host_busy_cores", *BOUND_COLUMNS, "limited_by",
          "limited_by_detail", "status",
          "reason", "notes", "server_log", "fairness_spread", "fairness_cv",
          "fairness_slowest_10pct_share")
FAIRNESS_COLUMNS = 3
# Last, in a run that measured a database only (results/database_figures.py's DatabaseFigures).
DATABASE_COLUMNS = ("queries", "database_cores", "database_cpu_us_per_request", "database_memory_peak_bytes",
                    "database_context_switches", "database_context_switches_per_request",
                    "database_unavailable", "db_pool", "db_driver")


class CsvExporter:
    file_name = RESULTS_CSV

    def render(self, result: BenchResult) -> str:
        if result.kind is RunKind.LATENCY:
            return render_latency_csv(result)
        return render_bench_csv(result)


def render_bench_csv(result: BenchResult) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    database = measures_database(result)
    layers = layer_order(result) if has_profiles(result) else None
    writer.writerow(HEADER + (DATABASE_COLUMNS if database else ())
                    + (profile_header(layers) if layers is not None else ()))
    for cell in result.cells:
        writer.writerow(_row(result, cell) + (_database(cell, result) if database else ())
                        + (profile_values(cell, layers) if layers is not None else ()))
    return buffer.getvalue()


def _row(result: BenchResult, cell: Cell) -> tuple[object, ...]:
    count = generator_count(cell)
    workload = cell.workload
    head = (result.label(cell.server), cell.server, workload.key, workload.name,
            "" if workload.delay_ms is None else workload.delay_ms, cell.threads,
            cell.connections, "" if count is None else count, len(cell.runs))
    verdict = cell_bottleneck(cell, result)
    tail = (verdict.limit.value, verdict.detail, cell.status.value, cell.reason or "",
            "; ".join(run_notes(cell)), server_log(cell, result) or "")
    figures = cell_figures(cell)
    if figures is None:
        body = ("",) * (len(HEADER) - len(head) - len(tail) - FAIRNESS_COLUMNS
                        - len(BOUND_COLUMNS))
    else:
        body = _measured(figures) + _cpu(figures, ceiling_share(cell, result))
    return head + body + _bound(cell, result) + tail + _fairness(cell)


def _bound(cell: Cell, result: BenchResult) -> tuple[object, ...]:
    bound = cell_wait_bound(cell, result)
    if bound is None:
        return ("",) * len(BOUND_COLUMNS)
    pool_max = pool_threads_max(cell) if bound.pool_threads is not None else None
    return (_number(bound.rate), bound.set_by, _number(share_of_bound(cell, result), digits=4),
            _number(bound.connections_rate), _number(bound.pool_rate),
            "" if bound.pool_threads is None else bound.pool_threads,
            "" if pool_max is None else pool_max)


def _database(cell: Cell, result: BenchResult) -> tuple[object, ...]:
    """The rows per request, the database's figures (empty where not measured), then the
    server's pool and driver."""
    figures, record = database_figures(cell), result.server(cell.server)
    queries = ("" if cell.workload.queries is None else cell.workload.queries,)
    pool = ("" if record is None or record.db_pool is None else record.db_pool,
            record.db_driver if record else "")
    if figures is None:
        return queries + ("",) * (len(DATABASE_COLUMNS) - 3) + pool
    return queries + (
        _number(figures.cores, digits=3), _number(figures.cpu_us_per_request),
        _number(figures.memory_peak_bytes, digits=0), _number(figures.context_switches, digits=0),
        _number(figures.context_switches_per_request), figures.unavailable or "") + pool


def _fairness(cell: Cell) -> tuple[str, ...]:
    figures = cell_fairness(cell)
    if figures is None:
        return ("",) * FAIRNESS_COLUMNS
    spread = "inf" if math.isinf(figures.spread) else _number(figures.spread, digits=4)
    return (spread, _number(figures.cv, digits=4), _number(figures.slowest_share, digits=4))


def _cpu(figures: CellFigures, share: float | None) -> tuple[object, ...]:
    return (_number(share, digits=4), _number(figures.cpu_us_per_request),
            _number(figures.context_switches_per_request),
            _number(figures.involuntary_switches_per_request), "" if figures.threads_max is None else figures.threads_max,
            _number(figures.loadgen_cores, digits=3), _number(figures.host_busy_cores, digits=3))


def _measured(figures: CellFigures) -> tuple[object, ...]:
    rate, errors = figures.requests_per_sec, figures.errors
    return (
        _number(rate.median), _number(rate.minimum), _number(rate.maximum),
        _number(rate.cv, digits=4), _number(figures.successful_requests_per_sec),
        _number(figures.latency_mean_us), _number(figures.latency_stdev_us),
        _number(figures.latency_max_us), _number(figures.latency_p50_us),
        _number(figures.latency_p99_us), _number(figures.latency_p999_us),
        _number(figures.transfer_per_sec), errors.connect, errors.read, errors.write,
        errors.timeout, figures.non_2xx_3xx, _number(figures.cpu_cores, digits=3),
        _number(figures.memory_peak_bytes, digits=0), _number(figures.memory_mean_bytes, digits=0),
        figures.resources_unavailable or "",
    )


def _number(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"
