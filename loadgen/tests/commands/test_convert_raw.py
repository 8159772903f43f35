"""The one-off conversion of a committed run's raw files (h2load's log of requests, the
socket readings of a fairness run, the stall meter's buckets) to the forms runs keep now:
files of committed runs, copied, give the same tables before and after."""

from __future__ import annotations

import json
import shutil

from httplab.cli import main
from httplab.commands.convert_raw import convert_run, main as convert_main
from httplab.paths import DEFAULT_REPO

RESULTS = DEFAULT_REPO / "results"
# An HTTP/2 cell measured by h2load (its log gzipped, its stalls in the lab's buckets) and a
# wrk cell with h2load's fairness run after it (its socket readings).
COPIED = {"2026-11-27T03-52-46Z": "armeria@h2-t10-c500-r1.*",
          "2026-11-23T04-59-26Z": "armeria-t10-c16.*"}
TABLES = ("results.md", "results.csv")


def copied_run(tmp_path):
    raw = tmp_path / "run" / "raw"
    raw.mkdir(parents=True)
    for run, pattern in COPIED.items():
        for path in (RESULTS / run / "raw").glob(pattern):
            shutil.copy(path, raw / path.name)
    return raw.parent


def tables(run, repo, out) -> dict[str, str]:
    """The tables of a report into another folder: one into the run's own would archive it."""
    assert main(["--repo", str(repo), "report", "--from", str(run), "--out", str(out),
                 "--image", str(out / "chart.png")]) == 0
    return {name: (out / name).read_text() for name in TABLES}


def test_a_converted_run_gives_the_same_tables_from_smaller_files(tmp_path, repo):
    run = copied_run(tmp_path)
    raw = run / "raw"
    before = tables(run, repo, tmp_path / "a")
    size_before = sum(path.stat().st_size for path in raw.iterdir())
    assert convert_run(run) == []
    names = sorted(path.name for path in raw.iterdir())
    assert not [name for name in names if name.endswith((".tsv.gz", ".sockets.txt"))]
    assert {"armeria@h2-t10-c500-r1.h2load-latency.json",
            "armeria-t10-c16.connections.json"} <= set(names)
    stalls = json.loads((raw / "armeria@h2-t10-c500-r1.stalls.json").read_text())
    assert "hdr_histogram" in stalls and "histogram" not in stalls
    assert tables(run, repo, tmp_path / "b") == before
    assert sum(path.stat().st_size for path in raw.iterdir()) < size_before / 10
    assert ",armeria@h2," in before["results.csv"]  # the h2load cell is in the tables


def test_converting_again_changes_nothing_and_an_unreadable_file_is_named(tmp_path):
    run = copied_run(tmp_path)
    convert_run(run)
    contents = {path.name: path.read_bytes() for path in (run / "raw").iterdir()}
    assert convert_run(run) == []
    assert {path.name: path.read_bytes() for path in (run / "raw").iterdir()} == contents
    broken = run / "raw" / "netty-t2-c10.sockets.txt"
    broken.write_text("not a reading\n")
    assert convert_main([str(run)]) == 1 and broken.is_file()
    assert convert_main([str(tmp_path / "none")]) == 2
