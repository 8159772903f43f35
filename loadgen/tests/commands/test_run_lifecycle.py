"""The run lifecycle's end: a bench that ended has its raw files archived, its results
recording the archive, and its mark removed; its unmeasured runs summarised and dropped, or
kept with KEEP_UNMEASURED=1."""

from __future__ import annotations

import io
import json

import pytest

from httplab.commands.bench import BenchSteps
from httplab.commands.run_lifecycle import Destination, run_lifecycle
from httplab.paths import DEFAULT_REPO
from httplab.results.raw_archive import archived_members
from httplab.running.plan import make_plan
from httplab.running.progress import Progress

from tests.support.fake_backend import FakeOhaBackend
from tests.support.plans import CPUS, KNOWN, plan_settings


class CheckedSteps(BenchSteps):
    """make bench's steps, the machine's checks taken as passed (the fake backend has none)."""

    def check(self, backend, results_root):
        pass

    def new_progress(self):
        return Progress(self.plan, io.StringIO())


@pytest.mark.parametrize("keep", ["0", "1"])
def test_a_bench_that_ended_is_archived_as_keep_unmeasured_says(tmp_path, keep):
    plan = make_plan(plan_settings("alpha", "10", "20", "1s", warmup="1s",
                                   keep_unmeasured=keep), KNOWN, CPUS)
    where = Destination(tmp_path / "results", None, DEFAULT_REPO)
    run_lifecycle(CheckedSteps(plan), FakeOhaBackend({}), where)
    (run,) = [path for path in where.results_root.iterdir() if path.name.startswith("20")]
    members = archived_members(run)
    assert "raw/alpha-t10-c20.txt" in members
    assert ("raw/unmeasured/alpha-warmup.txt" in members) == (keep == "1")
    assert (run / "raw" / "unmeasured.log").is_file() == (keep == "0")
    assert not (run / "raw" / "unmeasured").exists()
    assert not (run / ".under-way").exists()
    assert json.loads((run / "results.json").read_text())["raw_archive"]["name"] == "raw.tar.xz"
    assert "raw.tar.xz#raw/alpha-t10-c20.txt" in (run / "index.html").read_text()
