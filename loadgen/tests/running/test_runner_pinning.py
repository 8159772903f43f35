"""EXECUTOR=virtual in the runner, with a fake backend: JFR's recording of pinned virtual
threads started right before each measured run of a server whose blocking work runs on
virtual threads (before the profiler and the sampler) and stopped right after it, never
around a primer or warm-up, never for a pool's variant or the reference; its record is the
run's, read into the cell; one that fails leaves the run standing."""

from __future__ import annotations

import io

from httplab.model import PinnedRun
from httplab.results.collect import cells_from_outcomes
from httplab.results.pinning import cell_pinning
from httplab.running.plan import make_plan
from httplab.running.progress import Progress
from httplab.running.run_context import RunContext
from httplab.running.runner import Runner
from httplab.running.wrk_cells import WrkCells

from tests.running.profiling.test_pinning import PINNED, FakeReader
from tests.running.test_runner_profiling import ALPHA, ProfilingBackend, _in_order
from tests.support.fake_backend import FakeBackend
from tests.support.plans import CPUS, plan_settings, reference_manifest

MEASURED = ["JFR.start", "sample", "wrk raw", "sample", "JFR.stop", "collect {stem}.pinned.jfr",
            "read {stem}.pinned.jfr"]


def _run(tmp_path, backend, reader=None, **options):
    plan = make_plan(plan_settings("all", "10,5", "20", "1s", **options),
                     (reference_manifest(), ALPHA), CPUS)
    progress = io.StringIO()
    context = RunContext(backend, plan, tmp_path / "raw", Progress(plan, progress),
                         jfr_reader=reader or FakeReader(backend.events))
    outcomes = Runner(context, WrkCells(context), lambda outcome: None).run()
    return outcomes, progress.getvalue()


def test_only_virtual_threads_measured_runs_are_recorded_never_the_primer_or_warm_up(tmp_path):
    backend = ProfilingBackend()
    outcomes, _ = _run(tmp_path, backend, executor="pool,virtual", primer="1s", warmup="1s",
                       ceiling="1")
    assert [outcome.record.name for outcome in outcomes] == ["ref", "alpha", "alpha@virtual"]
    assert backend.controlled == ["alpha@virtual"]
    stems = ("alpha@virtual-t10-c20", "alpha@virtual-t5-c20")
    virtual = _in_order(backend.events)[-2 - 2 * len(MEASURED):]
    assert virtual == ["wrk unmeasured", "wrk unmeasured",
                       *(event.format(stem=stem) for stem in stems for event in MEASURED)]
    assert _in_order(backend.events).count("JFR.start") == 2
    paths = [[cell.pinned_path for cell in outcome.cells] for outcome in outcomes]
    raw = tmp_path / "raw"
    assert paths == [[None, None], [None, None],
                     [raw / f"{stem}.pinned.json" for stem in stems]]
    assert not list(raw.glob("*.pinned.jfr")) and not list((raw / "unmeasured").glob("*.pinned*"))
    cells = cells_from_outcomes([cell for outcome in outcomes for cell in outcome.cells])
    assert [cell.pinned for cell in cells] == [(), (), (), (), (PINNED,), (PINNED,)]
    assert cell_pinning(cells[-1]).events == PINNED.events and cell_pinning(cells[0]) is None


def test_with_the_profiler_too_the_recording_is_outermost(tmp_path):
    backend = ProfilingBackend()
    _run(tmp_path, backend, executor="virtual", profile="1")
    stem = "alpha@virtual+profiled-t10-c20"
    events = _in_order(backend.events)
    first = events.index("JFR.start")
    assert events[first:first + 10] == [
        "JFR.start", "start,event=cpu,interval=5000000", "sample", "wrk raw", "sample", "stop",
        f"collect {stem}.collapsed.txt", "dump", f"collect {stem}.flame.html", "JFR.stop"]


def test_a_recording_that_fails_leaves_the_run_standing_and_says_why(tmp_path):
    backend = ProfilingBackend(refuse=("JFR.stop",))
    outcomes, progress = _run(tmp_path, backend, executor="virtual")
    failure = "JFR did not stop: exit code 0 (Could not stop recording (a fake))"
    assert [cell.failure for cell in outcomes[-1].cells] == [None, None]
    assert f"pinned virtual threads unknown: {failure}" in progress
    cells = cells_from_outcomes(list(outcomes[-1].cells))
    assert cells[0].pinned == (PinnedRun(failure=failure),)
    assert cell_pinning(cells[0]).unknown == (failure,)


def test_a_server_without_a_jvm_to_attach_to_is_measured_without_the_recording(tmp_path):
    backend = FakeBackend()
    backend.events = []
    outcomes, progress = _run(tmp_path, backend, executor="virtual")
    assert [cell.failure for cell in outcomes[-1].cells] == [None, None]
    assert all(cell.pinned_path is None for cell in outcomes[-1].cells)
    assert ("pinned virtual threads not recorded: alpha@virtual has no JVM to attach to "
            "(a fake)") in progress
