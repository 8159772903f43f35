"""What the stall meter writes (raw/<stem>.stalls.json), made from chosen lateness values, for
the tests of its reader, of collect.py and of the verdicts; and the busy loop that stalls a
CPU for the tests of the meter as a process."""

from __future__ import annotations

from collections import Counter

from httplab.model import HostStalls


def meter_json(lateness_us: list[int], threshold_us: int = 1000, seconds: float = 20.0,
               loop_cpu_s: float = 0.1) -> dict:
    """What the meter would write after waking with these lateness values."""
    counts = Counter(max(value, 0) for value in lateness_us)
    stalls = [value for value in lateness_us if value >= threshold_us]
    return {"format": 1, "place": "host", "priority": "SCHED_FIFO 1",
            "interval_us": 10_000, "threshold_us": threshold_us,
            "samples": len(lateness_us), "max_us": max(lateness_us, default=0),
            "stalls": len(stalls), "stalled_us": sum(stalls),
            "lateness_us": [[value, counts[value]] for value in sorted(counts)],
            "started": {"monotonic_s": 100.0, "wall_s": 1.7e9},
            "ended": {"monotonic_s": 100.0 + seconds, "wall_s": 1.7e9 + seconds},
            "stopped_by": "SIGTERM", "cpu_s": loop_cpu_s + 0.06, "loop_cpu_s": loop_cpu_s}


def per_cpu_meter_json(lateness_by_cpu: dict[int, list[int]], roles: dict[int, str] | None = None,
                       steal_s: float | None = 0.0, place: str = "host") -> dict:
    """What the meter writes with a meter per CPU, each waking with its lateness values."""
    roles = roles or {}
    return {"format": 2, "place": place, "started": {"monotonic_s": 100.0, "wall_s": 1.7e9},
            "ended": {"monotonic_s": 120.0, "wall_s": 1.7e9 + 20}, "stopped_by": "SIGTERM",
            "cpus": [{**meter_json(lateness), "place": place, "cpu": cpu,
                      "role": roles.get(cpu, ""), "steal_s": steal_s}
                     for cpu, lateness in lateness_by_cpu.items()]}


CLEAN = [50] * 1990 + [200] * 10  # 2000 wake-ups, none a stall
# 2000 wake-ups of 20 s; every 300 ms one 38 ms late (66 of them), as a busy loop makes
STALLED = [50] * 1934 + [38_000] * 66
# 2000 wake-ups of 20 s, one of them 38 ms late: 0.19 % of the run, too little to break p99
ONE_STALL = [50] * 1999 + [38_000]

STALLED_HOST = HostStalls(interval_us=10_000, threshold_us=1000, samples=2000, p99_us=38_000,
                          p999_us=38_000, max_us=38_000, stalled_s=2.508, covered_s=20.0,
                          meter_cpu_s=0.12, priority="SCHED_FIFO 1")

# A SCHED_FIFO busy loop's body (run under chrt -f): takes its CPU for 40 ms every 300 ms,
# for a bounded time (the test stops it sooner).
BUSY_LOOP = """
import time
end = time.monotonic() + {seconds}
while time.monotonic() < end:
    spin_until = time.monotonic() + 0.040
    while time.monotonic() < spin_until:
        pass
    time.sleep(0.260)
"""
