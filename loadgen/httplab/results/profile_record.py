"""raw/<stem>.profile.json: what the runner records of the profiler on one measured run
(PROFILE=1), for collect.py to read beside the collapsed stacks. Pure: dicts in and out."""

from __future__ import annotations

from dataclasses import asdict, dataclass

PROFILE_RECORD_VERSION = 1


@dataclass(frozen=True)
class ProfilerRecord:
    """The profiler on one measured run: the event it sampled and at what interval, the files
    it left in the raw folder (names, beside this record), or what failed."""

    event: str  # one of model.PROFILE_EVENTS, as actually sampled (cpu, or itimer where not)
    interval: int | None  # ns per sample (cpu, itimer, wall), bytes (alloc)
    collapsed: str | None = None  # <stem>.collapsed.txt, when it was written
    flame_graph: str | None = None  # <stem>.flame.html
    failure: str | None = None  # the profiler did not start, stop or hand back its files
    started_s: float | None = None  # Unix time the profiler was started
    stopped_s: float | None = None  # and stopped


def record_to_dict(record: ProfilerRecord) -> dict:
    return {"version": PROFILE_RECORD_VERSION, **asdict(record)}


def record_from_dict(data: dict) -> ProfilerRecord:
    """Raises ValueError naming the field when the record is not one this lab writes."""
    if data.get("version") != PROFILE_RECORD_VERSION:
        raise ValueError(f"profile record version {data.get('version')!r}, "
                         f"expected {PROFILE_RECORD_VERSION}")
    if not isinstance(data.get("event"), str):
        raise ValueError(f"profile record: event: {data.get('event')!r} is not a string")
    fields = ProfilerRecord.__dataclass_fields__
    return ProfilerRecord(**{name: data.get(name) for name in fields})
