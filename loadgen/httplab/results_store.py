"""Where results go on disk: results/<UTC timestamp>/, results/latest, and the exports."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

from .chart import draw_throughput_chart
from .chart_latency import draw_latency_memory_chart
from .export import all_exporters
from .model import BenchResult
from .serialize import result_from_dict

LATEST = "latest"
RAW = "raw"


def utc_stamp(now: datetime | None = None) -> str:
    """'2026-11-22T04-30-05Z': sortable, and safe in file names on every OS."""
    return (now or datetime.now(timezone.utc)).strftime("%Y-%m-%dT%H-%M-%SZ")


def new_run_dir(results_root: Path, stamp: str) -> Path:
    run_dir = results_root / stamp
    (run_dir / RAW).mkdir(parents=True, exist_ok=False)
    return run_dir


def point_latest(results_root: Path, run_dir: Path) -> None:
    """results/latest -> the newest run (relative, so the tree can move)."""
    link = results_root / LATEST
    temporary = results_root / f".{LATEST}.tmp"
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(run_dir.name)
    os.replace(temporary, link)


def second_chart_path(image_path: Path) -> Path:
    """result1.png -> result2.png beside it; any other NAME.png -> NAME-2.png."""
    if image_path.name == "result1.png":
        return image_path.with_name("result2.png")
    return image_path.with_name(f"{image_path.stem}-2{image_path.suffix}")


def write_results(result: BenchResult, out_dir: Path, image_path: Path | None) -> None:
    """Writes results.{json,md,csv} (each atomically) and both charts."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for exporter in all_exporters():
        _write_atomically(out_dir / exporter.file_name, exporter.render(result))
    if image_path is not None and result.cells:
        draw_throughput_chart(result, image_path)
        draw_latency_memory_chart(result, second_chart_path(image_path))


def read_results(path: Path) -> BenchResult:
    return result_from_dict(json.loads(path.read_text()))


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)
