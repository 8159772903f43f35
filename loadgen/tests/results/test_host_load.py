"""The bottleneck verdicts end their figures with what the host did beside the run when it
can explain the result: other work of at least a quarter of its cores, a stall of at least
10 ms; never otherwise, and the verdict itself stays the CPU rule's."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import HostStalls, ResourceUsage
from httplab.results.bottleneck import CpuFigures, Limit, cell_bottleneck, judge
from httplab.results.host_load import host_broke_step, host_load_notes, longest_stall_us
from httplab.results.step_bottleneck import step_bottleneck

from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result
from tests.stalls_sample import STALLED_HOST

BUSY = "; the host was busy with other work: 0.90 cores"
STALLED = "; the host stalled up to 38 ms"


@pytest.mark.parametrize("foreign, stall_us, notes", [
    (0.9, 38_000, BUSY + STALLED),
    (0.9, None, BUSY),
    (None, 38_000, STALLED),
    (0.49, 9_999, ""),  # under a quarter of 2 cores, under 10 ms
    (0.5, 10_000, "; the host was busy with other work: 0.50 cores; the host stalled up to "
                  "10 ms"),
    (None, None, ""),
])
def test_notes_from_the_thresholds(foreign, stall_us, notes):
    assert host_load_notes(foreign, 2, stall_us) == notes


def test_the_longest_stall_over_runs_skips_those_without_a_meter():
    assert longest_stall_us((None, STALLED_HOST, replace(STALLED_HOST, max_us=900))) == 38_000
    assert longest_stall_us(()) is None and longest_stall_us((HostStalls(),)) is None


def test_a_meter_that_ran_as_an_ordinary_process_says_nothing_of_host_stalls():
    """Its lateness counts the wait for the CPUs the run keeps busy (seconds on 2 cores)."""
    ordinary = replace(STALLED_HOST, max_us=2_078_000, priority="normal (Operation not permitted)")
    assert longest_stall_us((ordinary,)) is None
    assert longest_stall_us((ordinary, STALLED_HOST)) == 38_000


def test_a_verdict_keeps_its_limit_and_says_what_the_host_did():
    cpu = CpuFigures(0.6, 2, 0.3, 2, 1.8, 2, foreign=0.9, stall_max_us=38_000)
    verdict = judge(cpu)
    assert verdict.limit is Limit.SHARED
    assert verdict.detail == "server 0.60 of 2 cores, wrk 0.30 of 2, host busy 1.80 of 2" + \
        BUSY + STALLED


def test_a_cell_with_a_stalled_run_says_so():
    result = sample_result()
    cell = next(cell for cell in result.cells if cell.resources)
    stalled = replace(cell, host_stalls=(STALLED_HOST,))
    assert cell_bottleneck(stalled, result).detail.endswith(STALLED)
    assert not cell_bottleneck(cell, result).detail.endswith(STALLED)


def test_a_step_with_foreign_cpu_and_stalls_says_so():
    result = latency_sample_result()
    step = replace(result.latency.steps[0], host_stalls=STALLED_HOST, resources=ResourceUsage(
        cpu_cores=0.3, loadgen_cores=0.3, host_busy_cores=2.6, loadgen_source="oha process"))
    assert step_bottleneck(step, result).detail.endswith(  # a quarter of its 4 cores is 1
        "; the host was busy with other work: 2.00 cores" + STALLED)


def stalls(max_us: float, stalled_s: float, priority: str = "SCHED_FIFO 1") -> HostStalls:
    """A 10 s step's meter record with this longest stall and this much time stalled."""
    return HostStalls(interval_us=10_000, threshold_us=1000, samples=1000, max_us=max_us,
                      stalled_s=stalled_s, covered_s=10.0, priority=priority)


@pytest.mark.parametrize("foreign, record, reason", [
    (None, stalls(40_000, 1.3), "the host stalled up to 40 ms (13.0% of the step)"),
    (None, stalls(5_000, 0.05), "the host stalled up to 5 ms (0.5% of the step)"),
    (None, stalls(4_999, 1.3), None),  # under half the 10 ms target: not the host's alone
    (None, stalls(40_000, 0.049), None),  # one stall: under half of p99's 1 % of the step
    (None, stalls(40_000, 1.3, "normal (not root)"), None),  # waits for busy CPUs too
    (0.5, None, "the host was busy with other work: 0.50 cores of 2"),
    (0.49, stalls(6_600, 0.01), None),  # the longest stall a real make bench saw here
    (0.9, stalls(40_000, 1.3), "the host stalled up to 40 ms (13.0% of the step) and the "
                               "host was busy with other work: 0.90 cores of 2"),
])
def test_the_host_broke_a_step_by_its_thresholds(foreign, record, reason):
    assert host_broke_step(foreign, 2, record, 10_000, held=False) == reason


def test_a_step_that_held_is_the_hosts_for_its_stalls_never_for_other_work():
    assert host_broke_step(0.9, 2, stalls(40_000, 1.3), 10_000, held=True) == (
        "the host stalled up to 40 ms (13.0% of the step)")
    assert host_broke_step(0.9, 2, None, 10_000, held=True) is None


def test_the_stall_threshold_follows_the_target():
    assert host_broke_step(None, 2, stalls(30_000, 1.3), 100_000, held=False) is None
    assert host_broke_step(None, 2, stalls(50_000, 1.3), 100_000, held=False) is not None
