"""`httplab compare`: two runs' Requests/sec, cell by cell, judged against their noise."""

from __future__ import annotations

from pathlib import Path

from httplab.presentation.compare import comparability_notes, compare_results, render_comparison
from httplab.model import BenchResult
from httplab.results.store import read_results
from httplab.commands.common import EXIT_OK, EXIT_USAGE, say
from httplab.run_layout import RESULTS_JSON


def compare(base: Path, new: Path) -> int:
    """Prints how the new run's Requests/sec compare with the base run's, cell by cell."""
    try:
        base_path, new_path = results_json_of(base), results_json_of(new)
        base_result, new_result = _read_for_compare(base_path), _read_for_compare(new_path)
    except ValueError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    print(f"Requests/sec, base {base_path} vs new {new_path}")
    for note in comparability_notes(base_result, new_result):
        print(f"note: {note}")
    print(render_comparison(compare_results(base_result, new_result)), end="", flush=True)
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
