"""Writes the HTML pages of presentation/html/: a run's index.html, the list of the runs
beside it (results/index.html), and the chart library those pages load, stored once in
results/assets/ (copied from the pinned plotly package when missing)."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

from httplab.model import BenchResult
from httplab.presentation.html.assets import ASSETS, PLOTLY_PACKAGE_FILE, ChartLibrary, library_of
from httplab.presentation.html.run_list import ListedRun, render_run_list
from httplab.presentation.html.run_page import render_run_page
from httplab.results.store import read_results, write_atomically
from httplab.run_layout import RESULTS_JSON, RESULTS_MD, RUN_PAGE

_HEADER_BYTES = 400  # plotly.min.js names its version in its first lines


def write_run_pages(result: BenchResult, run_dir: Path) -> None:
    """The run's index.html, then the list of runs in its parent folder."""
    library = install_chart_library(run_dir.parent)
    write_atomically(run_dir / RUN_PAGE, render_run_page(result, run_files(run_dir), library))
    write_run_list(run_dir.parent)


def run_files(run_dir: Path) -> frozenset[str]:
    """Every file of the run, as a relative POSIX path; hidden ones (a write under way)
    and the page itself are left out."""
    found = set()
    for path in run_dir.rglob("*"):
        relative = path.relative_to(run_dir)
        if path.is_file() and not any(part.startswith(".") for part in relative.parts):
            found.add(relative.as_posix())
    found.discard(RUN_PAGE)
    return frozenset(found)


def write_run_list(results_root: Path) -> None:
    """results/index.html: every folder beside it that holds a results.json (not the
    `latest` link), read afresh, so the list follows runs added or removed."""
    runs = [listed_run(folder) for folder in sorted(results_root.iterdir())
            if folder.is_dir() and not folder.is_symlink() and not folder.name.startswith(".")
            and (folder / RESULTS_JSON).is_file()]
    write_atomically(results_root / RUN_PAGE, render_run_list(runs))


def listed_run(folder: Path) -> ListedRun:
    page = RUN_PAGE if (folder / RUN_PAGE).is_file() else RESULTS_MD
    try:
        return ListedRun(folder.name, read_results(folder / RESULTS_JSON), page=page)
    except (OSError, ValueError) as error:  # JSON, encoding and format errors are ValueErrors
        return ListedRun(folder.name, None, f"cannot read {RESULTS_JSON}: {error}")


def install_chart_library(results_root: Path) -> ChartLibrary:
    """results_root/assets/plotly-<version>.min.js, copied once from the plotly package."""
    source = plotly_script()
    with source.open(encoding="utf-8") as script:
        library = library_of(script.read(_HEADER_BYTES))
    target = results_root / ASSETS / library.file_name
    if not target.is_file() or target.stat().st_size != source.stat().st_size:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.tmp")
        shutil.copyfile(source, temporary)
        os.replace(temporary, target)
    return library


def plotly_script() -> Path:
    """plotly.min.js inside the installed plotly package (loadgen/requirements.lock pins
    it); the package itself is not imported."""
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the plotly package is missing: run `make venv`")
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*PLOTLY_PACKAGE_FILE)
