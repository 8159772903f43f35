"""Where results live on disk: results/<UTC timestamp>/, its raw/ folder, results/latest;
and the runs there, newest first."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from httplab.model import BenchResult
from httplab.outcomes import GeneratorOutcome
from httplab.raw_files import generators_to_dict
from httplab.results.results_json.read import result_from_dict
from httplab.run_layout import LATEST, RAW, RESULTS_JSON, RunFiles


STAMP_FORMAT = "%Y-%m-%dT%H-%M-%SZ"  # a run's folder and created_utc


def utc_stamp(now: datetime | None = None) -> str:
    """'2026-11-22T04-30-05Z': sortable, and safe in file names on every OS."""
    return (now or datetime.now(timezone.utc)).strftime(STAMP_FORMAT)


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


def read_results(path: Path) -> BenchResult:
    return result_from_dict(json.loads(path.read_text()))


def results_newest_first(results_root: Path) -> Iterator[BenchResult]:
    """Each run's results under results_root, the newest folder first, read one at a time
    as asked; a run without results.json, or in a format this lab cannot read, is passed."""
    folders = sorted((path for path in results_root.iterdir()
                      if path.is_dir() and not path.is_symlink()), reverse=True) \
        if results_root.is_dir() else []
    for folder in folders:
        if (folder / RESULTS_JSON).is_file():
            try:
                yield read_results(folder / RESULTS_JSON)
            except (ValueError, KeyError, TypeError):  # damaged, or a format it cannot read
                continue


def write_atomically(path: Path, text: str) -> None:
    """A reader never sees half a file, even when the run is interrupted mid-write."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def write_generators_file(stem: Path, generators: tuple[GeneratorOutcome, ...]) -> Path:
    """Records which generator wrote which raw files of the run with this stem, so that
    `httplab report` can merge them again."""
    path = RunFiles(stem).generators
    write_atomically(path, json.dumps(generators_to_dict(generators, stem.parent), indent=2) + "\n")
    return path
