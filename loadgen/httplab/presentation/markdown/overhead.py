"""What results.md adds for PROFILE=0,1: the profiler's overhead, each framework's cells
measured without and with async-profiler side by side. Pure."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.wording.formatting import MISSING, format_duration_us, format_rate
from httplab.presentation.wording.variants import format_interval
from httplab.presentation.views.profile_overhead import Overhead, overheads
from httplab.results.paired_ratio import CONFIDENCE

OVERHEAD_INTRO = ("Profiler overhead (each framework measured in this run without and with "
                  "async-profiler; medians over runs, as in the tables above; with ÷ without "
                  "is the paired estimate, with its interval, as \"Variants compared\" gives "
                  "them):")
OVERHEAD_HEADER = ("Framework", "Threads", "Connections", "Requests/sec without",
                   "Requests/sec with", "With ÷ without", "CPU per request without",
                   "CPU per request with", f"{CONFIDENCE:.0%} interval")


def overhead_section(result: BenchResult) -> list[str]:
    """The intro and the table, after a blank line; none without a cell measured both ways."""
    rows = overheads(result)
    if not rows:
        return []
    workloads = len({row.with_profiler.workload for row in rows}) > 1
    header = OVERHEAD_HEADER[:1] + ("Workload",) * workloads + OVERHEAD_HEADER[1:]
    return ["", OVERHEAD_INTRO, "",
            *markdown_table(header, [_row(result, row, workloads) for row in rows])]


def _row(result: BenchResult, row: Overhead, workloads: bool) -> tuple[str, ...]:
    cell = row.without
    ratio = row.rate_ratio
    return (result.label(cell.server), *((cell.workload.label,) * workloads),
            str(cell.threads), str(cell.connections), format_rate(row.rate_without),
            format_rate(row.rate_with), MISSING if ratio is None else f"{ratio:.3f}×",
            format_duration_us(row.cpu_us_without), format_duration_us(row.cpu_us_with),
            format_interval(row.rate_figures))
