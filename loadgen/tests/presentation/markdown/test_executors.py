"""results.md's executors table: shown for a run that chose EXECUTOR, on the workloads where
the executor matters, each cell with its evidence and what limited it."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import PLAINTEXT, PinnedFrame, PinnedRun, Workload
from httplab.presentation.markdown.executors import EXECUTORS_HEADER, executor_table

from tests.sample_results import workloads_sample_result

BLOCKING_10 = Workload("blocking", 10)


def _chose_executors(result):
    return replace(result, settings=replace(result.settings, executors=("pool", "virtual")),
                   servers=tuple(replace(server, executor="pool")
                                 for server in result.servers))


def test_no_table_for_a_run_that_left_each_framework_its_own_way():
    assert executor_table(workloads_sample_result(), BLOCKING_10) == []


def test_no_table_for_a_workload_that_neither_waits_nor_reads_the_database():
    assert executor_table(_chose_executors(workloads_sample_result()), PLAINTEXT) == []


def test_each_blocking_cell_shows_its_executor_threads_cpu_and_what_limited_it():
    result = _chose_executors(workloads_sample_result())
    blocking = replace(result, cells=tuple(cell for cell in result.cells
                                           if cell.workload == BLOCKING_10))
    lines = executor_table(blocking, BLOCKING_10)
    assert lines[2].startswith("| " + " | ".join(EXECUTORS_HEADER[:3]))
    netty = next(line for line in lines if line.startswith("| Netty"))
    assert "| pool |" in netty
    assert netty.rstrip(" |").endswith("bounded by the pool: 64 threads ÷ 10 ms = 6,400/s "
                                       "(99% reached)")


def test_a_virtual_cells_pinned_threads_are_counted_with_the_frame_that_pinned_most():
    result = _chose_executors(workloads_sample_result())
    cell = next(cell for cell in result.cells if cell.workload == BLOCKING_10)
    pinned = (PinnedRun(events=3, total_ms=30.0, longest_ms=12.0,
                        top_frames=(PinnedFrame("app.Store.read", 3),)),) * len(cell.runs)
    virtual = replace(result, cells=(replace(cell, pinned=pinned),))
    row = executor_table(virtual, BLOCKING_10)[-1]
    assert f"| {3 * len(cell.runs)} in {len(cell.runs)} runs, most at app.Store.read " in row
    assert "| not recorded |" in executor_table(replace(result, cells=(cell,)), BLOCKING_10)[-1]
