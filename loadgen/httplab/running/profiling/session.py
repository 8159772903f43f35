"""async-profiler over one measured run: started right before the load (before the
resource sampler) and stopped right after it (after the sampler), so that no primer or
warm-up is in it; then its collapsed stacks and flame graph brought beside the run's
files, and its record written (raw/<stem>.profile.json). A profiler that fails fails
only the profile, which its record explains, never the run."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from httplab.results.profile_record import ProfilerRecord, record_to_dict
from httplab.run_layout import RunFiles
from httplab.running.profiling.agent import (ProfilerError, dump_arguments, start_arguments,
                                             stop_arguments)
from httplab.running.profiling.control import ServerProfiler

T = TypeVar("T")


@dataclass(frozen=True)
class ProfileOutcome:
    record_path: Path  # raw/<stem>.profile.json
    failure: str | None  # why the run has no profile, or an incomplete one


class ProfileSession:
    def __init__(self, profiler: ServerProfiler, files: RunFiles,
                 clock: Callable[[], float] = time.time):
        self.profiler, self.files, self.clock = profiler, files, clock
        self.failure: str | None = None
        self.started_s: float | None = None
        self.stopped_s: float | None = None

    def __enter__(self) -> ProfileSession:
        for path in (self.files.collapsed, self.files.flame_graph, self.files.profile):
            path.unlink(missing_ok=True)
        profiler = self.profiler
        reply = profiler.control.send(start_arguments(profiler.event, profiler.interval))
        if reply.ok:
            self.started_s = self.clock()
        else:
            self.failure = f"the profiler did not start: {reply.summary}"
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        if kind is None:  # an interrupted run leaves the server, and its profiler, to stop
            if self.started_s is not None:
                self.failure = self._stop_and_collect()
            self._write_record()
        return False

    def _stop_and_collect(self) -> str | None:
        control, files = self.profiler.control, self.files
        try:
            reply = control.send(stop_arguments(control.target(files.collapsed)))
            if not reply.ok:
                return f"the profiler did not stop: {reply.summary}"
            self.stopped_s = self.clock()
            if failure := control.collect(files.collapsed):
                return failure
            reply = control.send(dump_arguments(control.target(files.flame_graph)))
            if not reply.ok:
                return f"the profiler wrote no flame graph: {reply.summary}"
            return control.collect(files.flame_graph)
        except ProfilerError as error:
            return str(error)

    def _write_record(self) -> None:
        files = self.files
        record = ProfilerRecord(self.profiler.event, self.profiler.interval,
                                _name_if_written(files.collapsed),
                                _name_if_written(files.flame_graph), self.failure,
                                self.started_s, self.stopped_s)
        files.profile.write_text(json.dumps(record_to_dict(record), indent=2) + "\n")

    @property
    def outcome(self) -> ProfileOutcome:
        return ProfileOutcome(self.files.profile, self.failure)


def _name_if_written(path: Path) -> str | None:
    return path.name if path.is_file() else None


def profiled(profiler: ServerProfiler | None, files: RunFiles,
             run: Callable[[], T]) -> tuple[T, ProfileOutcome | None]:
    """run() with the profiler around it, when the server has one."""
    if profiler is None:
        return run(), None
    with ProfileSession(profiler, files) as session:
        result = run()
    return result, session.outcome
