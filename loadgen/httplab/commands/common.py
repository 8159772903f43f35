"""What every command shares: exit codes, the one way to speak to the user, and the
closing summary of a finished run."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from httplab.model import BenchResult, Cell, RunKind, StepVerdict
from httplab.presentation.publish import headline_chart_path
from httplab.presentation.wording.calibration import drift_sentence
from httplab.results.stability import cell_name
from httplab.run_layout import RESULTS_MD, RUN_PAGE
from httplab.results.warning_groups import kinds_in_words, warning_groups

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def interrupt_on_sigterm() -> None:
    """`kill` cleans up like Ctrl-C: SIGTERM raises KeyboardInterrupt."""
    signal.signal(signal.SIGTERM, _raise_interrupt)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def say(message: str) -> None:
    print(f"httplab: {message}", file=sys.stderr, flush=True)


def finish(result: BenchResult, out_dir: Path, image: Path | None) -> int:
    print((out_dir / RESULTS_MD).read_text(), flush=True)
    image = _chart_named(result, image)
    say(f"results in {out_dir}" + (f", chart in {image}" if image else ""))
    say(f"read the run first in a browser: {out_dir / RUN_PAGE}")
    drift = drift_sentence(result)  # make calibrate's: whether its A/A held 1
    if drift:
        say(drift)
    if result.warnings:
        say(f"warnings: {kinds_in_words(warning_groups(result))}; listed under Warnings above and "
            f"in {out_dir / RESULTS_MD}")
    failures = _failures(result, out_dir)
    for failure in failures:
        say(f"FAILED {failure}")
    return EXIT_FAILED if failures else EXIT_OK


def _chart_named(result: BenchResult, image: Path | None) -> Path | None:
    """The chart the summary names: the run's first chart (a bench's first workload's
    Requests/sec, make latency's curve); None when it drew none."""
    return None if image is None else headline_chart_path(result, image)


def _failures(result: BenchResult, out_dir: Path) -> list[str]:
    """What failed, one line each: a bench's cells, or a latency run's steps that could not
    run or be read (a broken target is not one)."""
    if result.kind is RunKind.LATENCY:
        return [f"{step.server} at {step.offered_rate:g}/s: {step.reason}"
                for step in result.latency.steps if step.verdict is StepVerdict.FAILED]
    return [f"{cell_name(cell, cell.server)}: {cell.reason}{_server_output(result, cell, out_dir)}"
            for cell in result.failed_cells]


def _server_output(result: BenchResult, cell: Cell, out_dir: Path) -> str:
    record = result.server(cell.server)
    return f" (server output: {out_dir / record.log_file})" if record and record.log_file else ""
