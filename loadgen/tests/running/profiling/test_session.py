"""The profiler over one measured run (started before it, stopped and its files brought
back after it, its record written; a failing profiler fails only the profile), with a
fake control."""

from __future__ import annotations

import json

import pytest

from httplab.results.profile_record import ProfilerRecord, record_from_dict
from httplab.run_layout import RunFiles
from httplab.running.profiling.control import ServerProfiler
from httplab.running.profiling.session import ProfileSession, profiled

from tests.support.fake_profiler import COLLAPSED, FLAME, FakeProfilerControl


def _files(tmp_path) -> RunFiles:
    return RunFiles(tmp_path / "netty+profiled-t5-c500")


def _record(files: RunFiles) -> ProfilerRecord:
    return record_from_dict(json.loads(files.profile.read_text()))


def _clock():
    ticks = iter(range(100, 200))
    return lambda: float(next(ticks))


def test_the_profile_brackets_the_run_and_leaves_its_files_and_record(tmp_path):
    events: list[str] = []
    files = _files(tmp_path)
    profiler = ServerProfiler(FakeProfilerControl(events), "cpu", 5_000_000)
    with ProfileSession(profiler, files, _clock()) as session:
        events.append("run")
    assert events == ["start,event=cpu,interval=5000000", "run", "stop",
                      "collect netty+profiled-t5-c500.collapsed.txt", "dump",
                      "collect netty+profiled-t5-c500.flame.html"]
    assert files.collapsed.read_text() == COLLAPSED and files.flame_graph.read_text() == FLAME
    assert _record(files) == ProfilerRecord(
        "cpu", 5_000_000, "netty+profiled-t5-c500.collapsed.txt",
        "netty+profiled-t5-c500.flame.html", None, 100.0, 101.0)
    assert session.outcome.record_path == files.profile and session.outcome.failure is None


@pytest.mark.parametrize("control, failure, events, collapsed, flame", [
    (dict(refuse=("start",)), "the profiler did not start: return code 200",
     ["start,event=itimer,interval=5000000", "run"], None, None),
    (dict(refuse=("stop",)), "the profiler did not stop: return code 200",
     ["start,event=itimer,interval=5000000", "run", "stop"], None, None),
    (dict(refuse=("dump",)), "the profiler wrote no flame graph: return code 200",
     ["start,event=itimer,interval=5000000", "run", "stop",
      "collect netty+profiled-t5-c500.collapsed.txt", "dump"],
     "netty+profiled-t5-c500.collapsed.txt", None),
    (dict(copies=False), "could not copy netty+profiled-t5-c500.collapsed.txt out (a fake)",
     ["start,event=itimer,interval=5000000", "run", "stop",
      "collect netty+profiled-t5-c500.collapsed.txt"], None, None),
], ids=["no-start", "no-stop", "no-dump", "no-copy"])
def test_a_failing_profiler_fails_only_its_profile_and_its_record_says_why(
        tmp_path, control, failure, events, collapsed, flame):
    seen: list[str] = []
    files = _files(tmp_path)
    profiler = ServerProfiler(FakeProfilerControl(seen, **control), "itimer", 5_000_000)
    result, outcome = profiled(profiler, files, lambda: seen.append("run") or "wrk's outcome")
    assert result == "wrk's outcome"
    assert seen == events
    record = _record(files)
    assert (record.failure, record.collapsed, record.flame_graph) == (failure, collapsed, flame)
    assert record.event == "itimer" and outcome.failure == failure


def test_files_of_an_earlier_attempt_are_not_taken_for_this_runs(tmp_path):
    files = _files(tmp_path)
    for path in (files.collapsed, files.flame_graph):
        path.write_text("stale")
    profiler = ServerProfiler(FakeProfilerControl([], refuse=("start",)), "cpu", 5_000_000)
    profiled(profiler, files, lambda: None)
    assert not files.collapsed.exists() and not files.flame_graph.exists()


def test_an_interrupted_run_neither_stops_the_profiler_nor_writes_a_record(tmp_path):
    events: list[str] = []
    files = _files(tmp_path)
    profiler = ServerProfiler(FakeProfilerControl(events), "cpu", 5_000_000)
    with pytest.raises(KeyboardInterrupt):
        with ProfileSession(profiler, files):
            raise KeyboardInterrupt
    assert events == ["start,event=cpu,interval=5000000"] and not files.profile.exists()


def test_without_a_profiler_the_run_is_just_run(tmp_path):
    assert profiled(None, _files(tmp_path), lambda: 7) == (7, None)
    assert list(tmp_path.iterdir()) == []
