"""The results table as Markdown, with figures formatted like wrk prints them."""

from __future__ import annotations

from ..formatting import MISSING, format_bytes, format_duration_us, format_rate
from ..model import BenchResult, Cell
from .columns import cell_status, socket_errors

HEADER = ("Framework", "Threads", "Connections", "Requests/sec", "Successful req/s",
          "Latency avg", "Latency stdev", "Latency max", "p50", "p99", "Transfer/sec",
          "Socket errors (connect/read/write/timeout)", "Non-2xx/3xx", "Status")


class MarkdownExporter:
    file_name = "results.md"

    def render(self, result: BenchResult) -> str:
        lines = [*_preamble(result), "", _row(HEADER), _row(("---",) * len(HEADER))]
        lines += [_row(_cells_row(result, cell)) for cell in result.cells]
        return "\n".join(lines) + "\n"


def _preamble(result: BenchResult) -> list[str]:
    lines = [f"Host: {result.host.describe()}", "", f"Run: {result.created_utc}"]
    if result.settings:
        settings = result.settings
        threads = " and ".join(str(count) for count in settings.threads)
        lines[-1] += (f"; wrk with {settings.connections} connections, threads {threads}, "
                      f"{settings.duration_s:g} s per run, against {settings.url}; "
                      f"backend {settings.backend}")
    return lines


def _cells_row(result: BenchResult, cell: Cell) -> tuple[str, ...]:
    head = (result.label(cell.server), str(cell.threads), str(cell.connections))
    run = cell.run
    if run is None:
        return head + (MISSING,) * (len(HEADER) - 4) + (cell_status(cell),)
    latency = run.latency
    return head + (
        format_rate(run.requests_per_sec), format_rate(run.successful_requests_per_sec),
        format_duration_us(latency.mean_us), format_duration_us(latency.stdev_us),
        format_duration_us(latency.max_us), format_duration_us(latency.percentile(50.0)),
        format_duration_us(latency.percentile(99.0)), format_bytes(run.transfer_per_sec),
        socket_errors(run), str(run.non_2xx_3xx), cell_status(cell),
    )


def _row(values: tuple[str, ...]) -> str:
    return "| " + " | ".join(_cell_text(value) for value in values) + " |"


def _cell_text(value: str) -> str:
    """One table cell: a multi-line reason (such as log lines) folds into one line."""
    return " / ".join(line.strip() for line in value.splitlines() if line.strip()).replace("|", "\\|")
