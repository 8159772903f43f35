"""A run's mark while it goes on, and its raw files archived when it ends: the unmeasured
runs' dropped into one-line summaries, or kept with KEEP_UNMEASURED=1."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from httplab.results.raw_archive import archived_members, raw_file_exists
from httplab.results.run_archiving import (archive_run, mark_under_way, read_mark,
                                           under_way)

from tests.conftest import FIXTURES

WRK = FIXTURES / "wrk"


def _finished_run(tmp_path):
    run = tmp_path / "run"
    unmeasured = run / "raw" / "unmeasured"
    unmeasured.mkdir(parents=True)
    for suffix in (".txt", ".json"):
        shutil.copy(WRK / f"nginx-hello{suffix}", run / "raw" / f"netty-t2-c10{suffix}")
        shutil.copy(WRK / f"nginx-hello{suffix}", unmeasured / f"netty-warmup{suffix}")
    shutil.copy(WRK / "nginx-hello.txt", unmeasured / "netty-primer.txt")
    (run / "raw" / "netty.log").write_text("started\n")
    return run


def test_by_default_the_unmeasured_runs_are_summarised_then_dropped(tmp_path):
    run = _finished_run(tmp_path)
    archive_run(run, keep_unmeasured=False)
    log = (run / "raw" / "unmeasured.log").read_text().splitlines()
    assert [line.split(":")[0] for line in log] == ["netty-primer", "netty-warmup"]
    assert all(": wrk, " in line for line in log)
    assert archived_members(run) == ("raw/netty-t2-c10.json", "raw/netty-t2-c10.txt")
    assert not (run / "raw" / "unmeasured").exists()
    assert (run / "raw" / "netty.log").is_file()


def test_keep_unmeasured_archives_them_with_the_rest_and_writes_no_summary(tmp_path):
    run = _finished_run(tmp_path)
    archive_run(run, keep_unmeasured=True)
    assert "raw/unmeasured/netty-warmup.json" in archived_members(run)
    assert raw_file_exists(run / "raw" / "unmeasured" / "netty-primer.txt")
    assert not (run / "raw" / "unmeasured.log").exists()


@pytest.mark.parametrize("keep", [True, False])
def test_an_interrupted_run_is_archived_as_its_mark_says(tmp_path, keep):
    run = _finished_run(tmp_path)
    mark_under_way(run, keep)
    assert under_way(run) is not None  # this process runs it
    archive_run(run)
    assert ("raw/unmeasured/netty-warmup.txt" in archived_members(run)) == keep
    assert read_mark(run) is None


def test_a_mark_whose_process_ended_is_no_run_under_way(tmp_path):
    run = _finished_run(tmp_path)
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    mark_under_way(run, False)
    mark = json.loads((run / ".under-way").read_text())
    assert (mark["pid"], mark["keep_unmeasured"]) == (os.getpid(), False)
    (run / ".under-way").write_text(json.dumps({**mark, "pid": int(ended.stdout)}))
    assert read_mark(run) is not None and under_way(run) is None
    (run / ".under-way").write_text(json.dumps({**mark, "host": "another-host"}))
    assert under_way(run) is not None  # its process cannot be seen from here


def test_summaries_of_a_later_pass_join_the_earlier_ones(tmp_path):
    run = _finished_run(tmp_path)
    archive_run(run, keep_unmeasured=False)
    (run / "raw" / "unmeasured").mkdir()
    shutil.copy(WRK / "nginx-hello.txt", run / "raw" / "unmeasured" / "netty-warmup-r2.txt")
    archive_run(run, keep_unmeasured=False)
    log = (run / "raw" / "unmeasured.log").read_text().splitlines()
    assert [line.split(":")[0] for line in log] == ["netty-primer", "netty-warmup",
                                                     "netty-warmup-r2"]
