"""Writes what a user reads: results.{json,md,csv} from every exporter, and both charts."""

from __future__ import annotations

from pathlib import Path

from httplab.presentation.chart_throughput import draw_throughput_chart
from httplab.presentation.chart_cpu import draw_cpu_chart
from httplab.presentation.chart_latency import draw_latency_memory_chart
from httplab.presentation.export import all_exporters
from httplab.model import BenchResult
from httplab.results.store import write_atomically


def second_chart_path(image_path: Path) -> Path:
    """result1.png -> result2.png beside it; any other NAME.png -> NAME-2.png."""
    if image_path.name == "result1.png":
        return image_path.with_name("result2.png")
    return image_path.with_name(f"{image_path.stem}-2{image_path.suffix}")


def cpu_chart_path(image_path: Path) -> Path:
    """result1.png -> result-cpu.png beside it; any other NAME.png -> NAME-cpu.png."""
    stem = "result" if image_path.name == "result1.png" else image_path.stem
    return image_path.with_name(f"{stem}-cpu{image_path.suffix}")


def write_results(result: BenchResult, out_dir: Path, image_path: Path | None) -> None:
    """Writes results.{json,md,csv} (each atomically) and the three charts."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for exporter in all_exporters():
        write_atomically(out_dir / exporter.file_name, exporter.render(result))
    if image_path is not None and result.cells:
        draw_throughput_chart(result, image_path)
        draw_latency_memory_chart(result, second_chart_path(image_path))
        draw_cpu_chart(result, cpu_chart_path(image_path))
