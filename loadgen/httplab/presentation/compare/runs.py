"""What `httplab compare` prints for two runs of either kind: two benches cell by cell
(bench.py), two latency runs server by server (latency.py), or one line saying
that a bench and a latency run, or two benches of different workloads, cannot be
compared. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, RunKind, Workload
from httplab.presentation.compare.bench import (cells_in_words, comparability_notes,
                                                compare_results, render_comparison)
from httplab.presentation.compare.latency import (latency_comparability_notes,
                                                  render_latency_comparison)
from httplab.presentation.views.points import run_workloads


def incomparable_reason(base: BenchResult, new: BenchResult) -> str | None:
    """One line when one run is a bench and the other a latency run, or when two benches
    measured no workload in common (cells are matched on theirs, so they share none);
    None when the runs can be compared."""
    if base.kind is not new.kind:
        return (f"cannot compare: base is {_kind(base)} and new is {_kind(new)}; a bench "
                "measures Requests/sec at set connections, a latency run latency at fixed "
                "rates: compare two benches, or two latency runs")
    base_workloads, new_workloads = run_workloads(base), run_workloads(new)
    if base_workloads and new_workloads and not set(base_workloads) & set(new_workloads):
        return (f"cannot compare: base measured {_labels(base_workloads)} and new "
                f"{_labels(new_workloads)}; cells are matched on their workload, so these "
                "runs share none")
    return None


def _labels(workloads: tuple[Workload, ...]) -> str:
    return ", ".join(workload.label for workload in workloads)


def render_run_comparison(base: BenchResult, new: BenchResult, base_name: str,
                          new_name: str) -> str:
    """Everything to print, ending in a newline: a title naming both runs, what differs
    besides the software, and the comparison (or incomparable_reason's line alone)."""
    reason = incomparable_reason(base, new)
    if reason is not None:
        return reason + "\n"
    if base.kind is not RunKind.LATENCY:  # two benches, or two calibrations: cell by cell
        title = f"Requests/sec, base {base_name} vs new {new_name}"
        comparisons = compare_results(base, new)
        notes = comparability_notes(base, new)
        body = render_comparison(comparisons) + "".join(
            f"{line}\n" for line in cells_in_words(comparisons))
    else:
        title = f"Latency runs, base {base_name} vs new {new_name}"
        notes, body = latency_comparability_notes(base, new), render_latency_comparison(base, new)
    return "\n".join([title, *(f"note: {note}" for note in notes)]) + "\n" + body


KINDS = {RunKind.BENCH: "a wrk bench", RunKind.CALIBRATE: "a calibration (make calibrate)",
         RunKind.LATENCY: "a latency run (make latency)"}


def _kind(result: BenchResult) -> str:
    return KINDS[result.kind]
