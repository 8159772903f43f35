"""Virtual threads pinned to their carrier during each measured run of a variant whose
blocking work runs on virtual threads (EXECUTOR=virtual; never a pool's, never the
reference's): the JVM's own flight recorder, recording that one event (loadtools/jfr/),
started through jattach right before the run (before the profiler and the sampler) and
stopped right after it, so that no primer or warm-up is in it. Its recording is brought
to raw/<stem>.pinned.jfr, summed by the host's jfr into raw/<stem>.pinned.json
(results/pinned_record.py) and removed; kept when it could not be read. A recording that
fails fails only that record, which says why, never the run."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from httplab.loadtools.jfr.command import (STARTED, STOPPED, jcmd_failure, start_command,
                                           stop_command)
from httplab.manifest import VIRTUAL, ServerManifest
from httplab.model import PinnedRun
from httplab.results.pinned_record import PinnedRecord, record_to_dict
from httplab.run_layout import RunFiles
from httplab.running.profiling.control import ProfilerControl
from httplab.running.profiling.jfr_reader import PinnedReadError

T = TypeVar("T")
PinnedReader = Callable[[Path], PinnedRun]  # a recording's pinned events, summed


def records_pinning(manifest: ServerManifest) -> bool:
    """Whether its measured runs record pinned virtual threads: its blocking work runs on
    them (the reference has none, a pool's threads are never pinned)."""
    return not manifest.is_reference and manifest.executor == VIRTUAL


@dataclass(frozen=True)
class PinningRecorder:
    """JFR in one started server, reached through jattach, and how the host reads it."""

    control: ProfilerControl
    reader: PinnedReader


class PinningSession:
    def __init__(self, recorder: PinningRecorder, files: RunFiles,
                 clock: Callable[[], float] = time.time):
        self.recorder, self.files, self.clock = recorder, files, clock
        self.failure: str | None = None
        self.run = PinnedRun()
        self.started_s: float | None = None
        self.stopped_s: float | None = None

    def __enter__(self) -> PinningSession:
        for path in (self.files.pinned, self.files.pinned_recording):
            path.unlink(missing_ok=True)
        refused = jcmd_failure(STARTED, *self.recorder.control.jcmd(start_command()))
        if refused:
            self.failure = f"JFR did not start: {refused}"
        else:
            self.started_s = self.clock()
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        if kind is None:  # an interrupted run leaves the server, and its recording, to stop
            if self.started_s is not None:
                self.failure = self._stop_and_read()
            self._write_record()
        return False

    def _stop_and_read(self) -> str | None:
        control, recording = self.recorder.control, self.files.pinned_recording
        try:
            refused = jcmd_failure(STOPPED, *control.jcmd(stop_command(control.target(recording))))
        except ValueError as error:  # a path jcmd cannot take
            return str(error)
        if refused:
            return f"JFR did not stop: {refused}"
        self.stopped_s = self.clock()
        if failure := control.collect(recording):
            return failure
        try:
            self.run = self.recorder.reader(recording)
        except PinnedReadError as error:
            return f"{recording.name} could not be read: {error}"
        recording.unlink()
        return None

    def _write_record(self) -> None:
        recording = self.files.pinned_recording
        run = PinnedRun(failure=self.failure) if self.failure else self.run
        record = PinnedRecord(run, recording.name if recording.is_file() else None,
                              self.started_s, self.stopped_s)
        self.files.pinned.write_text(json.dumps(record_to_dict(record), indent=2) + "\n")


@dataclass(frozen=True)
class PinnedOutcome:
    record_path: Path  # raw/<stem>.pinned.json
    failure: str | None  # why the run has no figures of its pinned virtual threads


def pinning_recorded(recorder: PinningRecorder | None, files: RunFiles,
                     run: Callable[[], T]) -> tuple[T, PinnedOutcome | None]:
    """run() with JFR recording pinned virtual threads around it, when the server's runs
    are recorded."""
    if recorder is None:
        return run(), None
    with PinningSession(recorder, files) as session:
        result = run()
    return result, PinnedOutcome(files.pinned, session.failure)
