"""The results table as CSV, in base units (µs, bytes/s) for spreadsheets and scripts."""

from __future__ import annotations

import csv
import io

from ..model import BenchResult, Cell

HEADER = ("framework", "server", "threads", "connections", "requests_per_sec",
          "successful_requests_per_sec", "latency_avg_us", "latency_stdev_us",
          "latency_max_us", "latency_p50_us", "latency_p99_us", "transfer_bytes_per_sec",
          "socket_errors_connect", "socket_errors_read", "socket_errors_write",
          "socket_errors_timeout", "non_2xx_3xx", "requests", "duration_s", "status", "reason")


class CsvExporter:
    file_name = "results.csv"

    def render(self, result: BenchResult) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(HEADER)
        for cell in result.cells:
            writer.writerow(_row(result, cell))
        return buffer.getvalue()


def _row(result: BenchResult, cell: Cell) -> tuple[object, ...]:
    head = (result.label(cell.server), cell.server, cell.threads, cell.connections)
    tail = (cell.status.value, cell.reason or "")
    run = cell.run
    if run is None:
        return head + ("",) * (len(HEADER) - len(head) - len(tail)) + tail
    latency, errors = run.latency, run.errors
    return head + (
        _number(run.requests_per_sec), _number(run.successful_requests_per_sec),
        _number(latency.mean_us), _number(latency.stdev_us), _number(latency.max_us),
        _number(latency.percentile(50.0)), _number(latency.percentile(99.0)),
        _number(run.transfer_per_sec), errors.connect, errors.read, errors.write,
        errors.timeout, run.non_2xx_3xx, run.requests, _number(run.duration_s),
    ) + tail


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"
