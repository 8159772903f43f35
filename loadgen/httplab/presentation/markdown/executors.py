"""What results.md adds when a run chose where blocking work runs (EXECUTOR): for each
waiting or database workload, every variant's evidence side by side: its figures, the
threads it kept alive, its CPU per request, the virtual threads pinned, and what limited
it (results/executor_limit.py). The ratios with their intervals are under "Variants
compared". Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, Workload
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.views.figures import cell_figures
from httplab.presentation.wording.formatting import MISSING, format_duration_us, format_rate
from httplab.results.executor_limit import cell_limit
from httplab.results.littles_law import pool_threads_max
from httplab.results.pinning import cell_pinning

EXECUTORS_INTRO = ("Where blocking work ran (EXECUTOR): pool, the framework's pool; virtual, "
                   "a virtual thread per task. Pinned: the virtual threads JFR saw pinned to their "
                   "carrier while measured (recorded on virtual threads only). Live threads are the server's OS threads at "
                   "most while measured; \"Pool or carriers\" the most of the pool's threads, "
                   "or of the virtual threads' carriers (virtual threads are no OS threads and "
                   "the JVM counts them only inside itself); see docs/method.md, "
                   "\"Executors\":")
EXECUTORS_HEADER = ("Server", "Executor", "Threads", "Connections", "Requests/sec",
                    "Latency p99", "Live threads", "Pool or carriers", "CPU per request",
                    "Pinned", "What limited it")


def executor_table(result: BenchResult, workload: Workload) -> list[str]:
    """The intro and the table; none for a run that left EXECUTOR to each framework, and
    for a workload that neither waits nor reads the database."""
    if not (result.settings and result.settings.executors) or not (
            workload.waits or workload.uses_database):
        return []
    rows = [_row(result, cell) for cell in result.cells]
    return [EXECUTORS_INTRO, "", *markdown_table(EXECUTORS_HEADER, rows)]


def _row(result: BenchResult, cell: Cell) -> tuple[str, ...]:
    record = result.server(cell.server)
    head = (result.label(cell.server), (record.executor if record else None) or MISSING,
            str(cell.threads), str(cell.connections))
    figures, limit = cell_figures(cell), cell_limit(cell, result)
    if figures is None or limit is None:
        reason = cell.reason or cell.status.value
        return head + (MISSING,) * (len(EXECUTORS_HEADER) - len(head) - 1) + (reason,)
    return head + (format_rate(figures.requests_per_sec.median),
                   format_duration_us(figures.latency_p99_us), _count(figures.threads_max),
                   _count(pool_threads_max(cell)), _cpu_us(figures.cpu_us_per_request),
                   _pinned(cell), limit.sentence)


def _pinned(cell: Cell) -> str:
    """The pinned events over the cell's runs and the frame that pinned most; "not
    recorded" for a pool variant, whose threads cannot pin."""
    pinning = cell_pinning(cell)
    if pinning is None:
        return "not recorded"
    if pinning.runs_read == 0:
        return f"unknown: {'; '.join(pinning.unknown)}" if pinning.unknown else MISSING
    text = f"{pinning.events} in {pinning.runs_read} runs"
    if pinning.top_frame:
        text += f", most at {pinning.top_frame} ({pinning.top_frame_events})"
    return text + (f"; unknown: {'; '.join(pinning.unknown)}" if pinning.unknown else "")


def _count(value: int | None) -> str:
    return MISSING if value is None else str(value)


def _cpu_us(value: float | None) -> str:
    return MISSING if value is None else f"{value:.0f} µs"
