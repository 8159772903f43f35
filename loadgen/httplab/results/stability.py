"""Stability warnings: cells whose repeated runs disagree more than the threshold. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, CellStatus
from httplab.results.stats import cell_summary

DEFAULT_CV_THRESHOLD = 0.05
ADVICE = ("rerun with more repeats (REPEAT=5), longer runs (DURATION=30s), on a quieter "
          "host, or with wrk and the server on separate CPUs (SERVER_CPUS, LOADGEN_CPUS)")


def cell_warning(cell: Cell, label: str, threshold: float) -> str | None:
    """None for a stable cell, and for a failed one: its reason already says what went wrong."""
    if cell.status is CellStatus.FAILED:
        return None
    summary = cell_summary(cell)
    if summary is None or summary.cv is None or summary.cv <= threshold:
        return None
    return (f"{label} t{cell.threads} c{cell.connections}: Requests/sec varies by "
            f"{summary.cv:.1%} (coefficient of variation over {summary.n} runs, threshold "
            f"{threshold:.0%}); {ADVICE}")


def stability_warnings(result: BenchResult, threshold: float) -> tuple[str, ...]:
    warnings = (cell_warning(cell, result.label(cell.server), threshold) for cell in result.cells)
    return tuple(warning for warning in warnings if warning)
