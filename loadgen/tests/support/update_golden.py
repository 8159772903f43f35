"""Regenerate the exporters' golden files after an intended format change: renders every
exporter over tests.sample_results.sample_result() into tests/fixtures/golden and prints
which files changed. Review the diff before committing it.

Run it as `make golden`, or: cd loadgen && ../.venv/bin/python -m tests.support.update_golden
(`make test` never runs it: the golden-file tests only compare.)"""

from __future__ import annotations

import sys
from pathlib import Path

from httplab.presentation.export import all_exporters

from tests.sample_results import sample_result

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden"


def update_golden(folder: Path = GOLDEN) -> list[Path]:
    """Writes each exporter's output into folder; returns the files whose text changed."""
    folder.mkdir(parents=True, exist_ok=True)
    result, changed = sample_result(), []
    for exporter in all_exporters():
        path, rendered = folder / exporter.file_name, exporter.render(result)
        if path.exists() and path.read_text() == rendered:
            continue
        path.write_text(rendered)
        changed.append(path)
    return changed


def main() -> int:
    changed = update_golden()
    for path in changed:
        print(f"changed: {path}")
    if not changed:
        print(f"unchanged: every golden file in {GOLDEN} already matches its exporter")
    else:
        print("review the diff (git diff -- loadgen/tests/fixtures/golden) before committing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
