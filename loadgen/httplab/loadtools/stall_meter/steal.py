"""Each CPU's steal time from /proc/stat: the time a virtual machine's vCPU was ready but
the hypervisor ran something else, which the guest cannot otherwise see (its clock goes on,
its tasks simply do not run). The meter reads it at its start and end; the difference, per
CPU, goes into its record. Standard library only: the meter imports it in the wrk image."""

from __future__ import annotations

import os
from pathlib import Path

PROC_STAT = Path("/proc/stat")
STEAL_FIELD = 8  # of a `cpuN` line, after its name: user nice system idle iowait irq softirq steal


def steal_ticks(proc_stat: str) -> dict[int, int]:
    """Each CPU's steal, in clock ticks since boot, from /proc/stat's `cpuN` lines (the
    `cpu` line of all CPUs and a kernel too old to count steal are left out)."""
    ticks = {}
    for line in proc_stat.splitlines():
        name, *fields = line.split()
        if name.startswith("cpu") and name[3:].isdigit() and len(fields) >= STEAL_FIELD:
            ticks[int(name[3:])] = int(fields[STEAL_FIELD - 1])
    return ticks


def steal_seconds(start: dict[int, int], end: dict[int, int],
                  ticks_per_s: float) -> dict[int, float]:
    """Each CPU's steal between two readings, in seconds (CPUs in both readings only)."""
    return {cpu: (end[cpu] - start[cpu]) / ticks_per_s for cpu in sorted(start.keys() & end.keys())}


def read_steal_ticks() -> dict[int, int]:
    """This host's reading now; empty where there is no /proc/stat."""
    try:
        return steal_ticks(PROC_STAT.read_text())
    except OSError:
        return {}


def ticks_per_second() -> float:
    return float(os.sysconf("SC_CLK_TCK"))
