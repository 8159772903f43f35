"""`httplab compare`: two runs judged against their noise: two benches' Requests/sec cell by
cell, or two latency runs' max sustainable rates and common-rate costs server by server.
Prints the comparison and writes it as a page, compare.html: into --out, else into
results/compare/<base>-vs-<new>/, never inside either run's folder."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from httplab.presentation.html.compare_page import RunRef, render_compare_page
from httplab.presentation.compare.runs import incomparable_reason, render_run_comparison
from httplab.model import BenchResult
from httplab.results.store import read_results, write_atomically
from httplab.commands.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, say
from httplab.run_layout import COMPARE_PAGE, RESULTS_JSON, RUN_PAGE

COMPARE_FOLDER = "compare"  # results/compare/<base>-vs-<new>/: the pages of make compare


def compare(base: Path, new: Path, out: Path | None, results_root: Path) -> int:
    """Prints how the new run compares with the base run, beyond their noise, and writes
    the same as compare.html."""
    try:
        base_path, new_path = results_json_of(base), results_json_of(new)
        base_result, new_result = _read_for_compare(base_path), _read_for_compare(new_path)
        runs = run_folder(base_path), run_folder(new_path)
        page_dir = page_folder(out, results_root, *runs)
    except ValueError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    reason = incomparable_reason(base_result, new_result)
    if reason:
        say(f"error: {reason}")
        return EXIT_USAGE
    print(render_run_comparison(base_result, new_result, str(base_path), str(new_path)),
          end="", flush=True)
    return _write_page(base_result, new_result, runs, page_dir)


def results_json_of(run: Path) -> Path:
    """A run directory's results.json, or the path itself when it names the file."""
    return run / RESULTS_JSON if run.is_dir() else run


def run_folder(results_json: Path) -> Path:
    """The folder of the run, links resolved: results/latest is the run it points to."""
    return results_json.resolve().parent


def page_folder(out: Path | None, results_root: Path, base: Path, new: Path) -> Path:
    """Where compare.html goes; a ValueError when that is inside either run's folder."""
    folder = (out if out is not None else
              results_root / COMPARE_FOLDER / f"{base.name}-vs-{new.name}").resolve()
    for run in (base, new):
        if folder.is_relative_to(run):
            raise ValueError(f"the comparison page cannot go inside a run's folder ({run}): "
                             f"give OUT= a folder outside both runs")
    return folder


def run_ref(run: Path, page_dir: Path) -> RunRef:
    """The run by its folder's name, and its page as a link from page_dir, if it has one."""
    page = run / RUN_PAGE
    href = quote(Path(os.path.relpath(page, page_dir)).as_posix()) if page.is_file() else None
    return RunRef(run.name, href)


def _write_page(base: BenchResult, new: BenchResult, runs: tuple[Path, Path],
                page_dir: Path) -> int:
    page = page_dir / COMPARE_PAGE
    try:
        page_dir.mkdir(parents=True, exist_ok=True)
        write_atomically(page, render_compare_page(
            base, new, *(run_ref(run, page_dir) for run in runs)))
    except OSError as error:
        say(f"error: cannot write {page}: {error}")
        return EXIT_FAILED
    say(f"comparison page: {page}")
    return EXIT_OK


def _read_for_compare(path: Path) -> BenchResult:
    if not path.is_file():
        raise ValueError(f"no results.json at {path}")
    try:
        return read_results(path)
    except (OSError, ValueError) as error:  # JSON, encoding and format errors are ValueErrors
        raise ValueError(f"cannot read {path}: {error}") from error
