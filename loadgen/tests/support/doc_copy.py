"""A scratch copy of the lab's docs and committed results, and a one-place edit of it: what
the tests of tests/docs break by hand to show that each of their checks can fail."""

from __future__ import annotations

import shutil
from pathlib import Path

from httplab.paths import DEFAULT_REPO
from httplab.run_layout import RESULTS_JSON


def copy_docs_and_runs(target: Path) -> Path:
    """The README, docs/ and each committed run's results.json, under target."""
    shutil.copy(DEFAULT_REPO / "README.md", target / "README.md")
    shutil.copytree(DEFAULT_REPO / "docs", target / "docs")
    for results in (DEFAULT_REPO / "results").glob(f"*/{RESULTS_JSON}"):
        (target / "results" / results.parent.name).mkdir(parents=True)
        shutil.copy(results, target / "results" / results.parent.name / RESULTS_JSON)
    return target


def edit_once(path: Path, old: str, new: str) -> None:
    """Replace old, which the file must hold exactly once, by new."""
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} is not in {path.name} once"
    path.write_text(text.replace(old, new))
