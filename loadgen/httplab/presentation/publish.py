"""Writes what a user reads, and is the only module of presentation/ that writes files:
results.{json,md,csv} from every exporter, the run's page index.html and the list of runs
beside it (with the chart library those pages load, stored once in results/assets/), and
the PNG charts of the catalogue (views/charts.py) beside the image path."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

from httplab.model import BenchResult, RunKind
from httplab.presentation.exporters import all_exporters
from httplab.presentation.html.assets import ASSETS, PLOTLY_PACKAGE_FILE, ChartLibrary, library_of
from httplab.presentation.html.run_list import ListedRun, render_run_list
from httplab.presentation.html.run_page import render_run_page
from httplab.presentation.png.charts import chart_png
from httplab.presentation.views.charts import run_charts, workload_chart_path
from httplab.presentation.views.points import run_workloads
from httplab.results.raw_archive import archived_members
from httplab.results.store import read_results, write_atomically
from httplab.run_layout import RESULTS_JSON, RESULTS_MD, RUN_PAGE

_HEADER_BYTES = 400  # plotly.min.js names its version in its first lines


def headline_chart_path(result: BenchResult, image_path: Path) -> Path | None:
    """The run's first chart: a bench's Requests/sec chart of its first workload
    (image_path itself when it measured plaintext), make latency's curve beside image_path;
    None for a run that draws no chart."""
    if result.kind is RunKind.LATENCY:
        curve = next((chart for chart in run_charts(result) if chart.shown), None)
        return curve.png_path(image_path) if curve else None
    workloads = run_workloads(result)
    return workload_chart_path(image_path, workloads[0]) if workloads else None


def write_results(result: BenchResult, out_dir: Path, image_path: Path | None) -> None:
    """Writes results.{json,md,csv} (each atomically), the run's page index.html (and the
    list of runs beside it), and, beside image_path, the run's charts."""
    out_dir.mkdir(parents=True, exist_ok=True)
    texts = {exporter.file_name: exporter.render(result) for exporter in all_exporters()}
    for name, text in texts.items():
        write_atomically(out_dir / name, text)
    write_run_pages(result, texts[RESULTS_MD], out_dir)
    if image_path is not None:
        write_charts(result, image_path)


def write_charts(result: BenchResult, image_path: Path) -> None:
    """Each chart of the catalogue at its PNG path. A chart with nothing to show is not
    drawn, and an older file of its name is removed, so that every chart beside image_path
    is from this run; only the charts of the workloads this run measured are written or
    removed (a run without plaintext leaves result1.png, a latency run the bench's charts)."""
    for chart in run_charts(result):
        path = chart.png_path(image_path)
        if chart.shown:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(chart_png(chart))
        else:
            path.unlink(missing_ok=True)


def write_run_pages(result: BenchResult, results_md: str, run_dir: Path) -> None:
    """The run's index.html (showing results_md's tables), then the list of runs in its
    parent folder."""
    library = install_chart_library(run_dir.parent)
    write_atomically(run_dir / RUN_PAGE,
                     render_run_page(result, results_md, run_files(run_dir), library,
                                     frozenset(archived_members(run_dir))))
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
