"""The bottleneck verdicts end their figures with what the host did beside the run when it
can explain the result: other work of at least a quarter of its cores, a stall of at least
10 ms; never otherwise, and the verdict itself stays the CPU rule's."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import HostStalls, ResourceUsage, StepPurpose, StepVerdict
from httplab.results.bottleneck import CpuFigures, Limit, cell_bottleneck, judge
from httplab.results.host_load import (STALL_SHARE_OF_TAIL, TAIL_SHARE, cell_host_rounds,
                                       host_broke_step, host_load_notes, longest_stall,
                                       longest_stall_us, run_is_hosts, server_host_rounds,
                                       stalled_cpu, stalled_enough, step_is_hosts)
from httplab.results.step_bottleneck import step_bottleneck

from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result
from tests.stalls_sample import STALLED_HOST

BUSY = "; the host was busy with other work: 0.90 cores"
STALLED = "; the host stalled up to 38 ms"


def longest(max_us: float | None) -> HostStalls | None:
    return None if max_us is None else replace(STALLED_HOST, max_us=max_us)


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
    assert host_load_notes(foreign, 2, longest(stall_us)) == notes


def test_the_notes_name_the_cpu_of_the_longest_stall():
    quiet, stalled = (replace(STALLED_HOST, cpu=0, role="server", max_us=300),
                      replace(STALLED_HOST, cpu=1, role="load tool", max_us=39_000))
    run = replace(STALLED_HOST, cpus=(quiet, stalled))
    record = longest_stall((None, run, replace(STALLED_HOST, max_us=20_000)))
    assert record == stalled and longest_stall_us((run,)) == 39_000
    assert host_load_notes(None, 2, record) == "; the host stalled up to 39 ms on CPU 1 (load tool)"


def test_the_longest_stall_over_runs_skips_those_without_a_meter():
    assert longest_stall_us((None, STALLED_HOST, replace(STALLED_HOST, max_us=900))) == 38_000
    assert longest_stall_us(()) is None and longest_stall_us((HostStalls(),)) is None


def test_a_meter_that_ran_as_an_ordinary_process_says_nothing_of_host_stalls():
    """Its lateness counts the wait for the CPUs the run keeps busy (seconds on 2 cores)."""
    ordinary = replace(STALLED_HOST, max_us=2_078_000, priority="normal (Operation not permitted)")
    assert longest_stall_us((ordinary,)) is None
    assert longest_stall_us((ordinary, STALLED_HOST)) == 38_000


def test_a_verdict_keeps_its_limit_and_says_what_the_host_did():
    cpu = CpuFigures(0.6, 2, 0.3, 2, 1.8, 2, foreign=0.9, stall=STALLED_HOST)
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


# -- a meter per CPU: the worst CPU decides, and the words name it ------------------------

def on_cpu(cpu: int, role: str, record: HostStalls, place: str = "host") -> HostStalls:
    return replace(record, cpu=cpu, role=role, place=place)


def per_cpu(*records: HostStalls) -> HostStalls:
    """The pooled record of these CPUs' (its own figures as the reader pools them)."""
    stalled = sum(record.stalled_s for record in records)
    covered = sum(record.covered_s for record in records)
    return replace(stalls(max(record.max_us for record in records), stalled),
                   covered_s=covered, cpus=records)


QUIET = stalls(400, 0.0)


@pytest.mark.parametrize("record, reason", [
    # the user's case: the load tool's CPU stalled 13 %, the server's quiet
    (per_cpu(on_cpu(0, "server", QUIET), on_cpu(1, "load tool", stalls(39_000, 1.22))),
     "the host stalled up to 39 ms on CPU 1 (load tool) (12.2% of the step)"),
    # 0.8 % on one CPU of two: pooled it reads 0.4 %, under the rule's 0.5 %; still the host's
    (per_cpu(on_cpu(0, "server", QUIET), on_cpu(1, "server and load tool", stalls(40_000, 0.08))),
     "the host stalled up to 40 ms on CPU 1 (server and load tool) (0.8% of the step)"),
    # both stalled enough: the worst by share stalled is named
    (per_cpu(on_cpu(0, "server", stalls(60_000, 0.1)), on_cpu(1, "load tool", stalls(20_000, 0.5))),
     "the host stalled up to 20 ms on CPU 1 (load tool) (5.0% of the step)"),
    # the longest stall on one CPU, the time stalled on the other: neither CPU broke p99
    (per_cpu(on_cpu(0, "server", stalls(40_000, 0.04)), on_cpu(1, "load tool", stalls(4_000, 1.0))),
     None),
    # a CPU whose meter ran as an ordinary process says nothing
    (per_cpu(on_cpu(0, "server", QUIET),
             on_cpu(1, "load tool", stalls(40_000, 1.3, "normal (not root)"))), None),
    (per_cpu(on_cpu(0, "load tool", stalls(40_000, 1.3), "load generator 1 (ssh://b)")),
     "the host stalled up to 40 ms on CPU 0 (load tool) of load generator 1 (ssh://b) (13.0% "
     "of the step)"),
    (per_cpu(on_cpu(0, "server", QUIET), replace(stalls(40_000, 1.3), place="load generator 1 "
                                                 "(ssh://b)")),
     "the host stalled up to 40 ms on load generator 1 (ssh://b) (13.0% of the step)"),
    (replace(stalls(40_000, 1.3), place="host; no meter on load generator 2 (x): why"),
     "the host stalled up to 40 ms (13.0% of the step)"),  # before meters per CPU
])
def test_the_worst_cpu_decides_and_is_named(record, reason):
    assert host_broke_step(None, 2, record, 10_000, held=True) == reason
    assert stalled_enough(record, 10_000) is (reason is not None)


def test_the_pooled_share_would_have_hidden_the_stalled_cpu():
    record = per_cpu(on_cpu(0, "server", QUIET), on_cpu(1, "load tool", stalls(40_000, 0.08)))
    assert record.stalled_share < STALL_SHARE_OF_TAIL * TAIL_SHARE
    assert stalled_cpu(record, 10_000).cpu == 1


@pytest.mark.parametrize("record, hosts", [
    (None, False), (HostStalls(), False),
    (per_cpu(on_cpu(0, "server", QUIET), on_cpu(1, "load tool", stalls(39_000, 1.22))), True),
    (stalls(5_000, 0.05), True),  # half of STALL_US, 0.5 % of the run
    (stalls(4_999, 1.3), False), (stalls(40_000, 0.049), False),
    (stalls(40_000, 1.3, "normal (not root)"), False)])
def test_a_bench_run_is_the_hosts_by_the_rule_at_the_default_target(record, hosts):
    assert run_is_hosts(record) is hosts


def test_a_cells_host_rounds_are_those_of_its_runs_the_host_decided():
    result = sample_result()
    cell = next(cell for cell in result.cells if len(cell.runs) >= 3)
    rounds = tuple(range(4, 4 + len(cell.runs)))
    stalled = (STALLED_HOST, None, QUIET) + (QUIET,) * (len(cell.runs) - 3)
    assert cell_host_rounds(replace(cell, rounds=rounds, host_stalls=stalled)) == {4}
    assert cell_host_rounds(replace(cell, rounds=(), host_stalls=stalled)) == {1}
    assert cell_host_rounds(replace(cell, host_stalls=())) == frozenset()


def test_a_latency_servers_host_rounds_are_its_cost_steps_and_maxima_the_host_decided():
    latency = latency_sample_result().latency
    server = latency.maxima[0].server
    costs = [step for step in latency.steps_of(server, StepPurpose.COST)]
    assert costs and server_host_rounds(latency, server) == frozenset(latency.maxima[0].host_rounds)
    host_cost = replace(costs[0], verdict=StepVerdict.HOST, repeat=2)
    maximum = replace(latency.maxima[0], host_rounds=(3,))
    changed = replace(latency, steps=(*latency.steps, host_cost),
                      maxima=(maximum, *latency.maxima[1:]))
    assert server_host_rounds(changed, server) == {2, 3}
    assert server_host_rounds(changed, "nobody") == frozenset()
    assert step_is_hosts(StepVerdict.HOST) and not step_is_hosts(StepVerdict.P99)
