"""raw/<stem>.pinned.json: what the runner records of virtual threads pinned during one
measured run (EXECUTOR=virtual), summed from JFR's recording as soon as the run ended, for
collect.py to read. The recording itself (<stem>.pinned.jfr) is removed once read, and
kept, named here, only when it could not be. Pure: dicts in and out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from httplab.model import PinnedFrame, PinnedRun

PINNED_RECORD_VERSION = 1


@dataclass(frozen=True)
class PinnedRecord:
    run: PinnedRun  # the figures, or why there are none
    recording: str | None = None  # <stem>.pinned.jfr, beside this record, when kept
    started_s: float | None = None  # Unix time the recording was started
    stopped_s: float | None = None  # and stopped


def pinned_run_to_dict(run: PinnedRun) -> dict[str, Any]:
    """The figures as this record holds them, and results.json keeps them for each run."""
    return {"events": run.events, "total_ms": run.total_ms, "longest_ms": run.longest_ms,
            "top_frames": [pinned_frame_to_dict(top) for top in run.top_frames],
            "failure": run.failure}


def pinned_frame_to_dict(frame: PinnedFrame) -> dict[str, Any]:
    return {"frame": frame.frame, "events": frame.events}


def pinned_run_from_dict(data: dict[str, Any]) -> PinnedRun:
    return PinnedRun(data.get("events"), data.get("total_ms"), data.get("longest_ms"),
                     tuple(PinnedFrame(top["frame"], top["events"])
                           for top in data.get("top_frames", ())),
                     data.get("failure"))


def record_to_dict(record: PinnedRecord) -> dict[str, Any]:
    return {"version": PINNED_RECORD_VERSION, **pinned_run_to_dict(record.run),
            "recording": record.recording, "started_s": record.started_s,
            "stopped_s": record.stopped_s}


def record_from_dict(data: dict[str, Any]) -> PinnedRecord:
    """Raises ValueError naming the field when the record is not one this lab writes."""
    if data.get("version") != PINNED_RECORD_VERSION:
        raise ValueError(f"pinned record version {data.get('version')!r}, "
                         f"expected {PINNED_RECORD_VERSION}")
    events = data.get("events")
    if events is not None and not isinstance(events, int):
        raise ValueError(f"pinned record: events: {events!r} is not a count")
    try:
        run = pinned_run_from_dict(data)
    except (KeyError, TypeError) as error:
        raise ValueError(f"pinned record: top_frames: {error!r}") from None
    return PinnedRecord(run, data.get("recording"), data.get("started_s"), data.get("stopped_s"))
