"""One-off: a committed run folder's raw files converted in place to the forms runs keep
now (`python -m httplab.commands.convert_raw results/<run>`): each h2load log of requests
(.h2load-requests.tsv.gz, or .tsv) to <stem>.h2load-latency.json, each fairness run's socket
readings (.sockets.txt) to <stem>.connections.json, and each stall meter's file to its
HdrHistogram form; the old file removed once its record is written. A file that cannot be
read is left as it was, and named. Then `make report FROM=results/<run>` rewrites the run's
tables from the new forms."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from httplab.run_layout import (GZIP_SUFFIX, H2LOAD_REQUESTS_SUFFIX, RAW, SOCKETS_SUFFIX,
                                STALLS_MARK, RunFiles, RunStem)
from httplab.running.raw_reduction import reduce_h2load_log, reduce_sockets, reduce_stalls


def convert_run(run_dir: Path) -> list[str]:
    """Every raw file of the run converted; one line for each file left as it was."""
    raw = run_dir / RAW if (run_dir / RAW).is_dir() else run_dir
    left = []
    for suffix in (H2LOAD_REQUESTS_SUFFIX + GZIP_SUFFIX, H2LOAD_REQUESTS_SUFFIX):
        for log in sorted(raw.glob("*" + suffix)):
            files = RunFiles.of_output(log, suffix)
            if reduce_h2load_log(log, files.h2load_latency) == log:
                left.append(_unreadable(log))
    for readings in sorted(raw.glob("*" + SOCKETS_SUFFIX)):
        files = RunFiles.of_output(readings, SOCKETS_SUFFIX)
        stem = RunStem.parse(files.stem.name)
        if stem is None:
            left.append(f"{readings}: not named for a measured run, its connections unknown")
        elif reduce_sockets(readings, files.connections, stem.connections) == readings:
            left.append(_unreadable(readings))
    for stalls in sorted(raw.rglob(f"*{STALLS_MARK}*.json")):
        if reduce_stalls(stalls) is None:
            left.append(_unreadable(stalls))
    return left


def _unreadable(original: Path) -> str:
    return f"{original}: cannot be read, left as it was"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m httplab.commands.convert_raw",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a run folder, results/<run>")
    run_dir = parser.parse_args(argv).run
    if not run_dir.is_dir():
        print(f"{run_dir}: no such run folder", file=sys.stderr)
        return 2
    left = convert_run(run_dir)
    for line in left:
        print(line, file=sys.stderr)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
