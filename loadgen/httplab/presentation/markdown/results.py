"""The results as Markdown: the cells table, where the CPU went, per-connection fairness
(when h2load ran), the servers as run, and any warnings. A run of plaintext alone shows
them as the original protocol always did; a run with other workloads shows the tables once
per workload (plaintext first), under a heading naming it and its request, with the bound
waiting sets for delay and blocking (markdown/workload.py) and the database beside each
server for db and queries (markdown/database.py). A run with profiles (PROFILE=1) adds, after
them, where the time went inside the servers (markdown/profile.py) and, measured both ways
(PROFILE=0,1), the profiler's overhead (markdown/overhead.py); with variants (SETTINGS,
PROFILE), each against its base (markdown/variants.py). make calibrate's run shows the host's
noise first (markdown/calibration.py)."""

from __future__ import annotations

import math

from httplab.model import PLAINTEXT, BenchResult, Cell, RunKind, Workload
from httplab.presentation.markdown.database import (DATABASE_CPU_HEADER, database_cpu_columns,
                                                    database_tables)
from httplab.presentation.markdown.calibration import calibration_section
from httplab.presentation.markdown.latency import render_latency_markdown
from httplab.presentation.markdown.overhead import overhead_section
from httplab.presentation.markdown.executors import executor_table
from httplab.presentation.markdown.protocols import protocol_table
from httplab.presentation.markdown.transports import transport_table
from httplab.presentation.markdown.variants import variants_section
from httplab.presentation.markdown.profile import profile_sections
from httplab.presentation.markdown.servers import run_servers_table
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.markdown.workload import bound_table, not_applicable_servers
from httplab.presentation.views.figures import CellFigures, cell_figures
from httplab.presentation.views.points import of_workload, only_plaintext, run_workloads
from httplab.presentation.wording.cells import (cell_status, generator_count, run_notes,
                                                share_of_ceiling_text, socket_errors,
                                                spread_over_generators)
from httplab.presentation.wording.formatting import (MISSING, format_bytes, format_duration_us,
                                                     format_rate, format_switches)
from httplab.presentation.wording.runtime import host_lines
from httplab.presentation.wording.settings import describe_settings
from httplab.presentation.wording.warnings import warning_item
from httplab.presentation.wording.workloads import workload_heading
from httplab.results.bottleneck import cell_bottleneck
from httplab.results.closed_loop_check import check_cell, ratio_text
from httplab.results.fairness import cell_fairness
from httplab.results.warning_groups import warning_groups
from httplab.run_layout import RESULTS_MD
from httplab.results.database_figures import database_figures

HEADER = ("Framework", "Threads", "Connections", "Requests/sec", "Min–max", "CV",
          "Successful req/s", "Latency avg", "Latency stdev", "Latency max", "p50", "p99",
          "Transfer/sec", "Socket errors (connect/read/write/timeout)", "Non-2xx/3xx",
          "CPU (cores)", "Memory peak", "Memory mean", "Status")
CPU_HEADER = ("Framework", "Threads", "Connections", "Requests/sec", "Share of ceiling",
              "Server CPU (cores)",
              "Server CPU per request", "Context switches per request", "Server threads",
              "wrk CPU (cores)", "Longest host stall", "Foreign CPU (cores)", "Host busy (cores)",
              "Limited by", "Figures behind it", "Little's law")
FAIRNESS_HEADER = ("Framework", "Threads", "Connections", "h2load runs", "Fairness spread",
                   "CV across connections", "Slowest 10 % share")
FAIRNESS_INTRO = ("Per-connection fairness (h2load, one request in flight per connection, after "
                  "each measured run; spread: the busiest connection's requests over the idlest's, "
                  "∞ when one completed none; the slowest 10 % of connections get 10 % of the "
                  "requests when the server is fair):")


class MarkdownExporter:
    file_name = RESULTS_MD

    def render(self, result: BenchResult) -> str:
        if result.kind is RunKind.LATENCY:
            return render_latency_markdown(result)
        return render_bench_markdown(result)


def render_bench_markdown(result: BenchResult) -> str:
    """A bench's tables; make calibrate's (a bench's cells, each server twice) with the
    host's noise first."""
    lines = _preamble(result) + calibration_section(result)
    if only_plaintext(result):
        lines += _workload_tables(result, PLAINTEXT)
    else:
        lines += _workload_sections(result)
    lines += profile_sections(result) + overhead_section(result) + variants_section(result)
    lines += run_servers_table(result)
    if result.warnings:
        lines += ["", "Warnings:", "", *(f"- {warning_item(group)}"
                                        for group in warning_groups(result))]
    return "\n".join(lines) + "\n"


def _workload_sections(result: BenchResult) -> list[str]:
    """Each workload's tables under its heading, plaintext first."""
    lines: list[str] = []
    for workload in run_workloads(result):
        lines += ["", workload_heading(result, workload),
                  *_workload_tables(of_workload(result, workload), workload)]
    return lines


def _workload_tables(result: BenchResult, workload: Workload) -> list[str]:
    """One workload's tables: its cells, the bound waiting sets (delay, blocking) or the
    database beside each server (db, queries), where the CPU went and per-connection
    fairness (when h2load ran)."""
    lines = ["", *_cells_table(result, workload)]
    for table in (bound_table(result, workload), database_tables(result, workload),
                  executor_table(result, workload), transport_table(result, workload),
                  protocol_table(result, workload)):
        lines += ["", *table] if table else []
    lines += ["", "Where the CPU went (the rule is in the README, \"Bottlenecks\"):", "",
              *_cpu_table(result)]
    if any(cell.fairness for cell in result.cells):
        lines += ["", FAIRNESS_INTRO, "", *markdown_table(
            FAIRNESS_HEADER, [_fairness_row(result, c) for c in result.cells])]
    return lines


def _preamble(result: BenchResult) -> list[str]:
    run = f"Run: {result.created_utc}"
    if result.settings:
        run += f"; {describe_settings(result.settings)}"
    if result.lab_commit:
        run += f"; httplab {result.lab_commit}"
    return [*host_lines(result), "", run]


def _cells_table(result: BenchResult, workload: Workload) -> list[str]:
    """The Generators column (after Connections) only where some cell had several; a row
    saying why for each server that has no endpoint for the workload."""
    absent = not_applicable_servers(result, workload)
    rows = [_cell_row(result, cell) for cell in result.cells] + [
        (label, MISSING, MISSING) + (MISSING,) * (len(HEADER) - 4) + (why,)
        for label, why in absent]
    if not spread_over_generators(result):
        return markdown_table(HEADER, rows)
    counts = [generator_count(cell) for cell in result.cells] + [None] * len(absent)
    return markdown_table(_with_generators(HEADER, "Generators"),
                  [_with_generators(row, MISSING if count is None else str(count))
                   for row, count in zip(rows, counts)])


def _with_generators(row: tuple[str, ...], value: str) -> tuple[str, ...]:
    at = HEADER.index("Connections") + 1
    return row[:at] + (value,) + row[at:]


def _cell_row(result: BenchResult, cell: Cell) -> tuple[str, ...]:
    head = (result.label(cell.server), str(cell.threads), str(cell.connections))
    figures = cell_figures(cell)
    if figures is None:
        return head + (MISSING,) * (len(HEADER) - 4) + (cell_status(cell, result),)
    status = cell_status(cell, result)
    if figures.resources_unavailable:
        status += f" (CPU and memory unavailable: {figures.resources_unavailable})"
    for note in run_notes(cell):
        status += f" ({note})"
    return head + _measured(figures) + (status,)


def _measured(figures: CellFigures) -> tuple[str, ...]:
    rate = figures.requests_per_sec
    spread = f"{rate.minimum:.2f}–{rate.maximum:.2f}" if rate.n > 1 else MISSING
    cv = f"{rate.cv:.1%}" if rate.cv is not None else MISSING
    return (
        format_rate(rate.median), spread, cv, format_rate(figures.successful_requests_per_sec),
        format_duration_us(figures.latency_mean_us), format_duration_us(figures.latency_stdev_us),
        format_duration_us(figures.latency_max_us), format_duration_us(figures.latency_p50_us),
        format_duration_us(figures.latency_p99_us), format_bytes(figures.transfer_per_sec),
        socket_errors(figures.errors), str(figures.non_2xx_3xx),
        MISSING if figures.cpu_cores is None else f"{figures.cpu_cores:.2f}",
        format_bytes(figures.memory_peak_bytes), format_bytes(figures.memory_mean_bytes),
    )


def _cpu_table(result: BenchResult) -> list[str]:
    """The database's columns before the verdict when any cell has its figures."""
    rows = [_cpu_row(result, cell) for cell in result.cells]
    if not any(database_figures(cell) for cell in result.cells):
        return markdown_table(CPU_HEADER, rows)
    at = CPU_HEADER.index("Limited by")
    return markdown_table(CPU_HEADER[:at] + DATABASE_CPU_HEADER + CPU_HEADER[at:],
                          [row[:at] + database_cpu_columns(cell) + row[at:]
                           for row, cell in zip(rows, result.cells)])


def _cpu_row(result: BenchResult, cell: Cell) -> tuple[str, ...]:
    head = (result.label(cell.server), str(cell.threads), str(cell.connections))
    figures = cell_figures(cell)
    verdict = cell_bottleneck(cell, result)
    if figures is None:
        return head + (MISSING,) * (len(CPU_HEADER) - 6) + (verdict.limit.value, verdict.detail,
                                                            _littles_law(cell))
    return head + (
        format_rate(figures.requests_per_sec.median), share_of_ceiling_text(cell, result),
        _number(figures.cpu_cores),
        format_duration_us(figures.cpu_us_per_request),
        format_switches(figures.context_switches_per_request,
                        figures.involuntary_switches_per_request),
        MISSING if figures.threads_max is None else str(figures.threads_max),
        _number(figures.loadgen_cores), format_duration_us(figures.longest_stall_us),
        _number(figures.foreign_cores), _number(figures.host_busy_cores),
        verdict.limit.value, verdict.detail, _littles_law(cell))


def _littles_law(cell: Cell) -> str:
    """rate × mean latency ÷ connections of the run farthest from 1, marked when outside the
    bounds (its warning says which side is wrong)."""
    check = check_cell(cell)
    if check is None:
        return MISSING
    return ratio_text(check.worst.ratio) + (" ⚠" if check.failed else "")


def _fairness_row(result: BenchResult, cell: Cell) -> tuple[str, ...]:
    head = (result.label(cell.server), str(cell.threads), str(cell.connections),
            str(len(cell.fairness)))
    figures = cell_fairness(cell)
    if figures is None:
        return head + (MISSING,) * 3
    spread = "∞" if math.isinf(figures.spread) else f"{figures.spread:.2f}×"
    return head + (spread, _percent(figures.cv), _percent(figures.slowest_share))


def _percent(value: float | None) -> str:
    return MISSING if value is None else f"{value:.1%}"


def _number(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}"
