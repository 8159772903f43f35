"""Stability warnings: cells whose repeated runs disagree more than the threshold, and
cells whose load generators started too far apart for their common window. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, CellStatus
from httplab.results.stats import cell_summary

DEFAULT_CV_THRESHOLD = 0.05
ADVICE = ("rerun with more repeats (REPEAT=5), longer runs (DURATION=30s), on a quieter "
          "host, or with wrk and the server on separate CPUs (SERVER_CPUS, LOADGEN_CPUS)")
# The largest start skew, as a share of the window in which every generator ran, that
# leaves Requests/sec (all requests over that window) within about 1 %.
SKEW_THRESHOLD = 0.01
SKEW_ADVICE = ("check that the generators' clocks agree (NTP or chrony on each) and how "
               "long SSH takes to reach each one, or run longer (DURATION=30s)")


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


def skew_warning(cell: Cell, label: str) -> str | None:
    """One warning for a cell whose generators started more than SKEW_THRESHOLD of the
    common window apart, in any of its runs (the worst one named)."""
    skews = [(run.start_skew_s / run.duration_s, run) for run in cell.runs
             if run.start_skew_s is not None and run.duration_s > 0]
    if not skews:
        return None
    share, run = max(skews, key=lambda pair: pair[0])
    if share <= SKEW_THRESHOLD:
        return None
    return (f"{label} t{cell.threads} c{cell.connections}: the {len(run.generators)} load "
            f"generators started {run.start_skew_s:.3f} s apart, {share:.1%} of the "
            f"{run.duration_s:.2f} s window in which all of them ran (threshold "
            f"{SKEW_THRESHOLD:.0%}), so Requests/sec counts requests from outside it; "
            f"{SKEW_ADVICE}")


def stability_warnings(result: BenchResult, threshold: float) -> tuple[str, ...]:
    warnings = [warning for cell in result.cells for warning in
                (cell_warning(cell, result.label(cell.server), threshold),
                 skew_warning(cell, result.label(cell.server)))]
    return tuple(warning for warning in warnings if warning)
