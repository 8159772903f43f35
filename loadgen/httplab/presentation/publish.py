"""Writes what a user reads: results.{json,md,csv} from every exporter, and the charts."""

from __future__ import annotations

from pathlib import Path

from httplab.presentation.charts.cpu import draw_cpu_chart
from httplab.presentation.charts.fairness import draw_fairness_chart, has_fairness_chart
from httplab.presentation.charts.kit import remove_chart
from httplab.presentation.charts.latency import draw_latency_memory_chart
from httplab.presentation.charts.latency_curve import draw_latency_curve_chart, shows_latency_curve
from httplab.presentation.charts.sweep import draw_sweep_chart, shows_a_sweep
from httplab.presentation.charts.throughput import draw_throughput_chart
from httplab.presentation.export import all_exporters
from httplab.presentation.points import at_connections, headline_connections
from httplab.model import BenchResult
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


def latency_chart_path(image_path: Path) -> Path:
    """make latency's chart: result1.png -> result-latency.png; NAME.png -> NAME-latency.png."""
    return named_chart_path(image_path, "latency")


def write_results(result: BenchResult, out_dir: Path, image_path: Path | None) -> None:
    """Writes results.{json,md,csv} (each atomically) and the charts: throughput, latency
    and memory, and CPU at the headline connection count; the sweep chart when more than
    one count was measured, and the fairness chart when h2load's socket readings are there.
    A chart with nothing to show is not drawn, and an older file of its name is removed, so
    that every chart beside image_path is from this run. A latency run (make latency) draws
    only result-latency.png."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for exporter in all_exporters():
        write_atomically(out_dir / exporter.file_name, exporter.render(result))
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
    headline = at_connections(result, headline_connections(result))
    draw_throughput_chart(headline, image_path)
    draw_latency_memory_chart(headline, second_chart_path(image_path))
    draw_cpu_chart(headline, cpu_chart_path(image_path))
    for shows, draw, path in ((shows_a_sweep, draw_sweep_chart, sweep_chart_path),
                              (has_fairness_chart, draw_fairness_chart, fairness_chart_path)):
        if shows(result):
            draw(result, path(image_path))
        else:
            remove_chart(path(image_path))
