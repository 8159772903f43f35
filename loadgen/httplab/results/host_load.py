"""What the host did beside a measured run that can explain its result, as the bottleneck
verdicts add it to their figures: other work on its CPUs (foreign CPU) and its stalls (the
stall meter's longest). Either is never counted against the server. The thresholds, stated
once here:
- busy with other work: foreign CPU of at least 25 % of the host's cores (0.5 of 2);
- stalled: a stall of at least 10 ms (make latency's default target for p99 whole: such
  stalls over 1 % of a run break it alone).
Pure."""

from __future__ import annotations

from httplab.model import HostStalls

FOREIGN_SHARE = 0.25  # of the host's cores
STALL_US = 10_000.0


def longest_stall_us(stalls: tuple[HostStalls | None, ...]) -> float | None:
    """The longest stall over some runs' records; None where none was measured by a meter
    that ran as a real-time task (an ordinary one also waits for the CPUs the run keeps
    busy, which is not the host stalling)."""
    return max((record.max_us for record in stalls
                if record and record.real_time and record.max_us is not None), default=None)


def host_load_notes(foreign_cores: float | None, host_cores: float,
                    stall_max_us: float | None) -> str:
    """"; the host was busy with other work: 0.90 cores; the host stalled up to 38 ms" for
    what crossed its threshold; empty when nothing did."""
    notes = []
    if foreign_cores is not None and foreign_cores >= FOREIGN_SHARE * host_cores:
        notes.append(f"the host was busy with other work: {foreign_cores:.2f} cores")
    if stall_max_us is not None and stall_max_us >= STALL_US:
        notes.append(f"the host stalled up to {stall_max_us / 1000:.0f} ms")
    return "".join(f"; {note}" for note in notes)
