"""Writes what a user reads: results.{json,md,csv} from every exporter, and the charts,
one set per workload (workload_chart_path names them)."""

from __future__ import annotations

from pathlib import Path

from httplab.presentation.charts.cpu import draw_cpu_chart
from httplab.presentation.charts.fairness import draw_fairness_chart, has_fairness_chart
from httplab.presentation.charts.kit import remove_chart
from httplab.presentation.charts.latency import draw_latency_memory_chart
from httplab.presentation.charts.latency_curve import draw_latency_curve_chart, shows_latency_curve
from httplab.presentation.charts.profile import draw_profile_chart
from httplab.presentation.charts.sweep import draw_sweep_chart
from httplab.presentation.charts.throughput import draw_throughput_chart
from httplab.presentation.export import all_exporters
from httplab.presentation.html_files import write_run_pages
from httplab.presentation.points import (at_connections, headline_connections, of_workload,
                                         run_workloads, shows_a_sweep)
from httplab.presentation.profile_figures import has_profiles
from httplab.model import BenchResult, Workload
from httplab.results.store import write_atomically


def numbered_chart_path(image_path: Path, number: int) -> Path:
    """result1.png -> resultN.png beside it; any other NAME.png -> NAME-N.png."""
    if image_path.name == "result1.png":
        return image_path.with_name(f"result{number}.png")
    return image_path.with_name(f"{image_path.stem}-{number}{image_path.suffix}")


def second_chart_path(image_path: Path) -> Path:
    return numbered_chart_path(image_path, 2)


def sweep_chart_path(image_path: Path) -> Path:
    return numbered_chart_path(image_path, 3)


def fairness_chart_path(image_path: Path) -> Path:
    return numbered_chart_path(image_path, 4)


def named_chart_path(image_path: Path, name: str) -> Path:
    """result1.png -> result-NAME.png beside it; any other IMAGE.png -> IMAGE-NAME.png."""
    stem = "result" if image_path.name == "result1.png" else image_path.stem
    return image_path.with_name(f"{stem}-{name}{image_path.suffix}")


def cpu_chart_path(image_path: Path) -> Path:
    return named_chart_path(image_path, "cpu")


def profile_chart_path(image_path: Path) -> Path:
    """PROFILE=1's chart: result1.png -> result-profile.png; NAME.png -> NAME-profile.png."""
    return named_chart_path(image_path, "profile")


def latency_chart_path(image_path: Path) -> Path:
    """make latency's chart: result1.png -> result-latency.png; NAME.png -> NAME-latency.png."""
    return named_chart_path(image_path, "latency")


def workload_chart_path(path: Path, workload: Workload) -> Path:
    """Where a chart of this workload goes: plaintext's at the path itself (result1.png,
    result2.png, result-cpu.png, result3.png, result4.png, or IMAGE's NAME.png, NAME-2.png,
    ...), any other workload's beside it, its key before the suffix: result1-json.png,
    result2-blocking-10ms.png, result-cpu-delay-10ms.png, NAME-json.png."""
    if workload.is_plaintext:
        return path
    return path.with_name(f"{path.stem}-{workload.key}{path.suffix}")


def headline_chart_path(result: BenchResult, image_path: Path) -> Path | None:
    """The Requests/sec chart of the run's first workload (image_path itself when it
    measured plaintext); None for a run without cells, which draws no chart."""
    workloads = run_workloads(result)
    return workload_chart_path(image_path, workloads[0]) if workloads else None


def write_results(result: BenchResult, out_dir: Path, image_path: Path | None) -> None:
    """Writes results.{json,md,csv} (each atomically), the run's page index.html (and the
    list of runs beside it, html_files.py), and each workload's charts:
    throughput, latency and memory, and CPU at the headline connection count; the sweep
    chart when more than one count was measured, and the fairness chart when h2load's
    socket readings are there; with profiles (PROFILE=1), result-profile.png of them all.
    A chart with nothing to show is not drawn, and an older file
    of its name is removed, so that every chart beside image_path is from this run; only
    the charts of the workloads this run measured are written or removed (a run without
    plaintext leaves result1.png). A latency run (make latency) draws only
    result-latency.png."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for exporter in all_exporters():
        write_atomically(out_dir / exporter.file_name, exporter.render(result))
    write_run_pages(result, out_dir)
    if image_path is not None and result.latency is not None:
        draw_latency_chart(result, image_path)
    elif image_path is not None and result.cells:
        draw_charts(result, image_path)


def draw_latency_chart(result: BenchResult, image_path: Path) -> None:
    """A latency run's one chart, beside image_path; the bench's charts there are left."""
    path = latency_chart_path(image_path)
    if shows_latency_curve(result):
        draw_latency_curve_chart(result, path)
    else:
        remove_chart(path)


def draw_charts(result: BenchResult, image_path: Path) -> None:
    """The charts of each workload the cells were measured at, each from its own cells,
    and the profile chart of every profiled cell (none, and an older one removed, without
    profiles)."""
    for workload in run_workloads(result):
        draw_workload_charts(of_workload(result, workload), workload, image_path)
    if has_profiles(result):
        draw_profile_chart(result, profile_chart_path(image_path))
    else:
        remove_chart(profile_chart_path(image_path))


def draw_workload_charts(result: BenchResult, workload: Workload, image_path: Path) -> None:
    """One workload's charts, at workload_chart_path."""
    headline = at_connections(result, headline_connections(result))
    for draw, path in ((draw_throughput_chart, image_path),
                       (draw_latency_memory_chart, second_chart_path(image_path)),
                       (draw_cpu_chart, cpu_chart_path(image_path))):
        draw(headline, workload_chart_path(path, workload))
    for shows, draw, path in ((shows_a_sweep, draw_sweep_chart, sweep_chart_path),
                              (has_fairness_chart, draw_fairness_chart, fairness_chart_path)):
        target = workload_chart_path(path(image_path), workload)
        if shows(result):
            draw(result, target)
        else:
            remove_chart(target)
