"""`python -m httplab.commands.archive results/<run> ...`: archives finished runs in place, as
a run now does when it ends: the plain raw files into raw.tar.xz, the unmeasured runs'
files dropped after their lines went to raw/unmeasured.log (KEEP_UNMEASURED=1 keeps them),
then results.json (in the current format, recording the archive), results.md and .csv and
the run's page rewritten from the results it holds (no raw file read again, no chart drawn).
A run under way is left alone."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

from httplab.commands.common import EXIT_OK, EXIT_USAGE, say
from httplab.model import BenchResult
from httplab.presentation.publish import write_results
from httplab.results.results_json.version import FORMAT_VERSION
from httplab.results.run_archiving import archive_run, under_way
from httplab.results.store import read_results
from httplab.run_layout import RESULTS_JSON

KEEP_UNMEASURED = "KEEP_UNMEASURED"  # as make passes the bench setting


def archive_finished_run(run_dir: Path, keep_unmeasured: bool | None = None) -> BenchResult:
    """The run archived and its results rewritten to say so; ValueError for a folder that is
    no finished run of this lab (no results.json, or a run under way)."""
    if not (run_dir / RESULTS_JSON).is_file():
        raise ValueError(f"{run_dir} holds no {RESULTS_JSON}: not a run of this lab")
    running = under_way(run_dir)
    if running is not None:
        raise ValueError(f"{run_dir} is a run under way (process {running.pid} on "
                         f"{running.host})")
    earlier = read_results(run_dir / RESULTS_JSON)
    result = replace(earlier, format_version=FORMAT_VERSION,
                     raw_archive=archive_run(run_dir, keep_unmeasured))
    write_results(result, run_dir, None)
    return result


def main(arguments: list[str]) -> int:
    if not arguments:
        say("usage: python -m httplab.commands.archive results/<run> [results/<run> ...]")
        return EXIT_USAGE
    keep = os.environ.get(KEEP_UNMEASURED)
    for run_dir in map(Path, arguments):
        try:
            result = archive_finished_run(run_dir, None if keep is None else keep == "1")
        except ValueError as error:  # JSON and format errors are ValueErrors too
            say(f"error: {error}")
            return EXIT_USAGE
        archive = result.raw_archive
        say(f"{run_dir}: " + (f"{archive.name} (sha256 {archive.sha256})" if archive
                              else "no raw files to archive"))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
