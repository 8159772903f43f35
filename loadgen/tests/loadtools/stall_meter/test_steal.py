"""Each CPU's steal time read from /proc/stat's `cpuN` lines (the 8th field after the name),
in clock ticks, and the difference between two readings in seconds."""

from __future__ import annotations

import pytest

from httplab.loadtools.stall_meter.steal import read_steal_ticks, steal_seconds, steal_ticks

PROC_STAT = """cpu  20410 1871 7843 14808 442 0 179 217 0 0
cpu0 10047 701 3350 8621 65 0 16 108 0 0
cpu1 10363 1169 4492 6186 377 0 162 109 0 0
intr 522572 0 0
ctxt 901504
"""


@pytest.mark.parametrize("text, ticks", [
    (PROC_STAT, {0: 108, 1: 109}),
    ("cpu12 1 2 3 4 5 6 7 8 9 10\n", {12: 8}),
    ("cpu0 1 2 3 4 5 6 7\n", {}),  # a kernel that counts no steal
    ("cpu 1 2 3 4 5 6 7 8\ncpufreq 1 2 3 4 5 6 7 8\n", {}),  # all CPUs; not a CPU
    ("", {}),
])
def test_each_cpus_steal_ticks(text, ticks):
    assert steal_ticks(text) == ticks


def test_steal_over_a_run_in_seconds_for_the_cpus_of_both_readings():
    assert steal_seconds({0: 100, 1: 200, 2: 5}, {0: 104, 1: 450, 3: 9}, 100) == {
        0: 0.04, 1: 2.5}


def test_this_hosts_reading_names_its_cpus():
    ticks = read_steal_ticks()
    assert ticks and all(value >= 0 for value in ticks.values())
