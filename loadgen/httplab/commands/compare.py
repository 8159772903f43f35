"""`httplab compare`: two runs judged against their noise: two benches' Requests/sec cell by
cell, or two latency runs' max sustainable rates and common-rate costs server by server."""

from __future__ import annotations

from pathlib import Path

from httplab.presentation.run_comparison import incomparable_reason, render_run_comparison
from httplab.model import BenchResult
from httplab.results.store import read_results
from httplab.commands.common import EXIT_OK, EXIT_USAGE, say
from httplab.run_layout import RESULTS_JSON


def compare(base: Path, new: Path) -> int:
    """Prints how the new run compares with the base run, beyond their noise."""
    try:
        base_path, new_path = results_json_of(base), results_json_of(new)
        base_result, new_result = _read_for_compare(base_path), _read_for_compare(new_path)
    except ValueError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    reason = incomparable_reason(base_result, new_result)
    if reason:
        say(f"error: {reason}")
        return EXIT_USAGE
    print(render_run_comparison(base_result, new_result, str(base_path), str(new_path)),
          end="", flush=True)
    return EXIT_OK


def results_json_of(run: Path) -> Path:
    """A run directory's results.json, or the path itself when it names the file."""
    return run / RESULTS_JSON if run.is_dir() else run


def _read_for_compare(path: Path) -> BenchResult:
    if not path.is_file():
        raise ValueError(f"no results.json at {path}")
    try:
        return read_results(path)
    except (OSError, ValueError) as error:  # JSON, encoding and format errors are ValueErrors
        raise ValueError(f"cannot read {path}: {error}") from error
