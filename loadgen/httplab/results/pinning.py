"""A cell's virtual threads pinned to their carriers over its measured runs (EXECUTOR=virtual):
the events of every run that was recorded and read, summed, and where most of them were.
Pure."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from httplab.model import Cell


@dataclass(frozen=True)
class CellPinning:
    events: int  # pinned events, summed over the runs read
    runs_read: int  # the runs whose recording was read
    total_ms: float  # pinned time, summed over those runs
    longest_ms: float | None  # the longest one pinning in any of them; None: no event
    # The frame with the most events over the runs (each run's top three counted), and
    # those events; None when nothing was pinned.
    top_frame: str | None
    top_frame_events: int
    unknown: tuple[str, ...]  # each run not read: why (its round, when there are several)


def cell_pinning(cell: Cell) -> CellPinning | None:
    """None when no run of the cell was recorded: its blocking work ran on a pool, the
    reference, or results from before pinned threads were recorded."""
    if not any(cell.pinned):
        return None
    rounds = cell.rounds or tuple(range(1, len(cell.pinned) + 1))
    read = [run for run in cell.pinned if run is not None and run.failure is None]
    unknown = tuple(run.failure if len(cell.pinned) == 1 else f"round {round_number}: "
                    f"{run.failure}" for run, round_number in zip(cell.pinned, rounds)
                    if run is not None and run.failure is not None)
    frames: Counter[str] = Counter()
    for run in read:
        frames.update({top.frame: top.events for top in run.top_frames})
    top = min(frames.items(), key=lambda item: (-item[1], item[0]), default=(None, 0))
    events = sum(run.events or 0 for run in read)
    longest = max((run.longest_ms or 0.0 for run in read), default=0.0)
    return CellPinning(events, len(read), sum(run.total_ms or 0.0 for run in read),
                       longest if events else None, top[0], top[1], unknown)
