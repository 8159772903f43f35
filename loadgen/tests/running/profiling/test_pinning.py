"""JFR's recording of pinned virtual threads over one measured run, with a fake control and
reader: started right before the run and stopped right after it, the recording brought
back, read, summed into the run's record and removed; a recording that fails fails only
that record, which says why, and keeps the recording when it could not be read; never
the run. Which servers have it: virtual threads' only, never a pool's or the reference's."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from httplab.manifest import parse_manifest
from httplab.model import PinnedFrame, PinnedRun
from httplab.results.pinned_record import PinnedRecord, record_from_dict
from httplab.run_layout import RunFiles
from httplab.running.profiling.jfr_reader import PinnedReadError
from httplab.running.profiling.pinning import (PinningRecorder, PinningSession,
                                               pinning_recorded, records_pinning)

from tests.support.fake_profiler import RECORDING, FakeProfilerControl
from tests.support.plans import MANIFEST, reference_manifest

PINNED = PinnedRun(3, 61.5, 20.5, (PinnedFrame("org.example.Handler.block", 3),))


class FakeReader:
    """Reads what the fake JVM wrote: the figures given, or refuses with a reason."""

    def __init__(self, events: list[str], refuse: str | None = None):
        self.events, self.refuse = events, refuse

    def __call__(self, recording):
        self.events.append(f"read {recording.name}")
        assert recording.read_bytes() == RECORDING
        if self.refuse:
            raise PinnedReadError(self.refuse)
        return PINNED


def _files(tmp_path) -> RunFiles:
    return RunFiles(tmp_path / "netty@virtual-blocking-10ms-t5-c500")


def _record(files: RunFiles) -> PinnedRecord:
    return record_from_dict(json.loads(files.pinned.read_text()))


def _clock():
    ticks = iter(range(100, 200))
    return lambda: float(next(ticks))


def test_the_recording_brackets_the_run_and_leaves_only_its_summed_record(tmp_path):
    events: list[str] = []
    files = _files(tmp_path)
    recorder = PinningRecorder(FakeProfilerControl(events), FakeReader(events))
    with PinningSession(recorder, files, _clock()) as session:
        events.append("run")
    assert events == ["JFR.start", "run", "JFR.stop",
                      "collect netty@virtual-blocking-10ms-t5-c500.pinned.jfr",
                      "read netty@virtual-blocking-10ms-t5-c500.pinned.jfr"]
    assert _record(files) == PinnedRecord(PINNED, None, 100.0, 101.0)
    assert not files.pinned_recording.exists() and session.failure is None


@pytest.mark.parametrize("control, reader, failure, events, kept", [
    (dict(refuse=("JFR.start",)), None,
     "JFR did not start: exit code 0 (Could not start recording (a fake))",
     ["JFR.start", "run"], False),
    (dict(refuse=("JFR.stop",)), None,
     "JFR did not stop: exit code 0 (Could not stop recording (a fake))",
     ["JFR.start", "run", "JFR.stop"], False),
    (dict(copies=False), None, "could not copy netty@virtual-blocking-10ms-t5-c500.pinned.jfr "
                               "out (a fake)",
     ["JFR.start", "run", "JFR.stop", "collect netty@virtual-blocking-10ms-t5-c500.pinned.jfr"],
     False),
    ({}, "jfr print exited with 1: not a recording",
     "netty@virtual-blocking-10ms-t5-c500.pinned.jfr could not be read: jfr print exited "
     "with 1: not a recording",
     ["JFR.start", "run", "JFR.stop", "collect netty@virtual-blocking-10ms-t5-c500.pinned.jfr",
      "read netty@virtual-blocking-10ms-t5-c500.pinned.jfr"], True),
], ids=["no-start", "no-stop", "no-copy", "unreadable"])
def test_a_failing_recording_fails_only_its_record_and_says_why(
        tmp_path, control, reader, failure, events, kept):
    seen: list[str] = []
    files = _files(tmp_path)
    recorder = PinningRecorder(FakeProfilerControl(seen, **control), FakeReader(seen, reader))
    result, outcome = pinning_recorded(recorder, files, lambda: seen.append("run") or "wrk's")
    assert result == "wrk's" and seen == events
    record = _record(files)
    assert record.run == PinnedRun(failure=failure) and outcome.failure == failure
    assert outcome.record_path == files.pinned
    assert files.pinned_recording.exists() is kept
    assert record.recording == (files.pinned_recording.name if kept else None)


def test_an_interrupted_run_leaves_no_record(tmp_path):
    events: list[str] = []
    files = _files(tmp_path)
    recorder = PinningRecorder(FakeProfilerControl(events), FakeReader(events))
    with pytest.raises(KeyboardInterrupt):
        with PinningSession(recorder, files):
            raise KeyboardInterrupt
    assert events == ["JFR.start"] and not files.pinned.exists()


def test_files_of_an_earlier_attempt_are_not_taken_for_this_runs(tmp_path):
    files = _files(tmp_path)
    for path in (files.pinned, files.pinned_recording):
        path.write_text("stale")
    recorder = PinningRecorder(FakeProfilerControl([], refuse=("JFR.start",)), FakeReader([]))
    pinning_recorded(recorder, files, lambda: None)
    assert not files.pinned_recording.exists()
    assert _record(files).run.failure.startswith("JFR did not start")


def test_without_a_recorder_the_run_runs_alone(tmp_path):
    assert pinning_recorded(None, _files(tmp_path), lambda: "wrk's") == ("wrk's", None)
    assert not list(tmp_path.iterdir())


def test_only_servers_whose_blocking_work_runs_on_virtual_threads_are_recorded():
    framework = parse_manifest("alpha", MANIFEST)
    assert records_pinning(replace(framework, executor="virtual"))
    assert not records_pinning(replace(framework, executor="pool"))
    assert not records_pinning(reference_manifest())
