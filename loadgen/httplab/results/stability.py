"""Stability warnings: cells whose repeated runs disagree more than the threshold, and
cells whose load generators started too far apart for their common window. Pure."""

from __future__ import annotations

from httplab.bench_settings import DEFAULT_CV_THRESHOLD
from httplab.model import BenchResult, Cell, CellStatus, CellWarning, WarningKind
from httplab.results.stats import cell_summary

ADVICE = ("rerun with more repeats (REPEAT=5), longer runs (DURATION=30s), on a quieter "
          "host, or with wrk and the server on separate CPUs (SERVER_CPUS, LOADGEN_CPUS)")
# The largest start skew, as a share of the window in which every generator ran, that
# leaves Requests/sec (all requests over that window) within about 1 %.
SKEW_THRESHOLD = 0.01
SKEW_ADVICE = ("check that the generators' clocks agree (NTP or chrony on each) and how "
               "long SSH takes to reach each one, or run longer (DURATION=30s)")


def noisy_warning(cell: Cell, label: str, threshold: float) -> CellWarning | None:
    """None for a stable cell, and for a failed one: its reason already says what went wrong."""
    if cell.status is CellStatus.FAILED:
        return None
    summary = cell_summary(cell)
    if summary is None or summary.cv is None or summary.cv <= threshold:
        return None
    name = cell_name(cell, label)
    return CellWarning(
        WarningKind.NOISY,
        f"{name}: Requests/sec varies by {summary.cv:.1%} (coefficient of variation over "
        f"{summary.n} runs, threshold {threshold:.0%}); {ADVICE}",
        name, f"Requests/sec varies from run to run by more than the {threshold:.0%} "
              f"threshold (coefficient of variation over {summary.n} runs)",
        f"{summary.cv:.1%}", ADVICE)


def skewed_warning(cell: Cell, label: str) -> CellWarning | None:
    """A warning for a cell whose generators started more than SKEW_THRESHOLD of the
    common window apart, in any of its runs (the worst one named)."""
    skews = [(run.start_skew_s / run.duration_s, run) for run in cell.runs
             if run.start_skew_s is not None and run.duration_s > 0]
    if not skews:
        return None
    share, run = max(skews, key=lambda pair: pair[0])
    if share <= SKEW_THRESHOLD:
        return None
    name = cell_name(cell, label)
    return CellWarning(
        WarningKind.SKEWED,
        f"{name}: the {len(run.generators)} load generators started {run.start_skew_s:.3f} s "
        f"apart, {share:.1%} of the {run.duration_s:.2f} s window in which all of them ran "
        f"(threshold {SKEW_THRESHOLD:.0%}), so Requests/sec counts requests from outside it; "
        f"{SKEW_ADVICE}",
        name, f"The load generators' starts lay further apart than {SKEW_THRESHOLD:.0%} of the "
              "window in which all of them ran, so Requests/sec counts requests from outside it",
        f"{run.start_skew_s:.3f} s apart, {share:.1%} of the window", SKEW_ADVICE)


def cell_name(cell: Cell, label: str) -> str:
    """How a warning names a cell: "Netty t2 c100", and with a workload other than
    plaintext "Netty blocking 10 ms t2 c100"."""
    workload = "" if cell.workload.is_plaintext else f" {cell.workload.label}"
    return f"{label}{workload} t{cell.threads} c{cell.connections}"


def stability_warnings(result: BenchResult, threshold: float) -> tuple[CellWarning, ...]:
    warnings = [warning for cell in result.cells for warning in
                (noisy_warning(cell, result.label(cell.server), threshold),
                 skewed_warning(cell, result.label(cell.server)))]
    return tuple(warning for warning in warnings if warning)
