"""Regenerate the exporters' golden files after an intended format change: renders every
exporter over each golden case into tests/fixtures/golden (a wrk bench,
tests.sample_results.sample_result()), tests/fixtures/golden/workloads (a bench of several
workloads, tests.sample_results.workloads_sample_result()), tests/fixtures/golden/database (a bench
of the db and queries workloads, tests.database_sample.database_sample_result()),
tests/fixtures/golden/profiles (a bench with PROFILE=0,1,
tests.profile_sample.profile_sample_result()), tests/fixtures/golden/latency (a make latency run,
tests.latency_sample.latency_sample_result()) and tests/fixtures/golden/latency-profiles (a make
latency run with PROFILE=1, tests.latency_profile_sample.latency_profile_sample_result()), and
prints which files changed. Review
the diff before committing it.

Run it as `make golden`, or: cd loadgen && ../.venv/bin/python -m tests.support.update_golden
(`make test` never runs it: the golden-file tests only compare.)"""

from __future__ import annotations

import sys
from pathlib import Path

from httplab.presentation.exporters import all_exporters

from tests.database_sample import database_sample_result
from tests.latency_profile_sample import latency_profile_sample_result
from tests.latency_sample import latency_sample_result
from tests.profile_sample import profile_sample_result
from tests.sample_results import sample_result, workloads_sample_result

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden"
# (the folder below GOLDEN, the result its files render)
GOLDEN_CASES = (("", sample_result), ("workloads", workloads_sample_result),
                ("database", database_sample_result), ("profiles", profile_sample_result),
                ("latency", latency_sample_result),
                ("latency-profiles", latency_profile_sample_result))


def update_golden(folder: Path = GOLDEN) -> list[Path]:
    """Writes each exporter's output for each case into folder; returns the files whose
    text changed."""
    changed = []
    for case, make_result in GOLDEN_CASES:
        changed += _update_case(folder / case, make_result())
    return changed


def _update_case(folder: Path, result) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    changed = []
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
