"""What every command shares: exit codes, the one way to speak to the user, and the
closing summary of a finished run."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from httplab.model import BenchResult, RateStep, StepVerdict
from httplab.presentation.publish import headline_chart_path
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
    if image and result.cells:  # a bench without plaintext draws its first workload's chart
        image = headline_chart_path(result, image)
    say(f"results in {out_dir}" + (f", chart in {image}" if image else ""))
    say(f"read the run first in a browser: {out_dir / RUN_PAGE}")
    if result.warnings:
        say(f"warnings: {kinds_in_words(warning_groups(result))}; listed under Warnings above and "
            f"in {out_dir / RESULTS_MD}")
    for cell in result.failed_cells:
        record = result.server(cell.server)
        log = f" (server output: {out_dir / record.log_file})" if record and record.log_file else ""
        say(f"FAILED {cell_name(cell, cell.server)}: {cell.reason}{log}")
    failed_steps = _failed_steps(result)
    for step in failed_steps:
        say(f"FAILED {step.server} at {step.offered_rate:g}/s: {step.reason}")
    return EXIT_FAILED if result.failed_cells or failed_steps else EXIT_OK


def _failed_steps(result: BenchResult) -> tuple[RateStep, ...]:
    """make latency's steps that could not run or be read (a broken target is not one)."""
    steps = result.latency.steps if result.latency else ()
    return tuple(step for step in steps if step.verdict is StepVerdict.FAILED)
