"""PROFILE=1 in the runners, with a fake backend: the profiler attached after the server is
verified and before its primer, started right before each measured run (before the
sampler) and stopped right after it (after the sampler), never around a primer, warm-up or
a step's warm-up; a server it cannot attach to is not loaded at all."""

from __future__ import annotations

import json
from itertools import groupby

import pytest

from httplab.results.raw_archive import raw_names
from httplab.commands.latency import latency
from httplab.manifest import parse_manifest
from httplab.model import CellStatus, StepVerdict
from httplab.results.profile_record import record_from_dict
from httplab.results.store import read_results
from httplab.run_layout import LATEST, RESULTS_JSON
from httplab.running.latency_plan import make_latency_plan
from httplab.running.plan import make_plan
from httplab.running.preflight import preflight
from httplab.running.resources.parse import ResourceSample

from tests.support.fake_profiler import FakeProfilerControl
from tests.support.fake_backend import FakeBackend, FakeOhaBackend, bench_run
from tests.support.plans import MANIFEST, plan_settings, reference_manifest

ALPHA = parse_manifest("alpha", MANIFEST.replace('workers = "cpus"', "workers = 3"))
MEASURED = ["start,event=cpu,interval=5000000", "sample", "wrk raw", "sample", "stop",
            "collect {stem}.collapsed.txt", "dump", "collect {stem}.flame.html"]


class RecordingProbe:
    source = "fake"

    def __init__(self, events: list[str]):
        self.events = events

    def read(self) -> ResourceSample:
        self.events.append("sample")
        return ResourceSample(cpu_seconds=float(len(self.events)), memory_bytes=1)


class ProfilingBackend(FakeBackend):
    """The fake server and wrk, with a profiler control, a probe and wrk that write one
    list of events in the order they happen."""

    def __init__(self, refuse: tuple[str, ...] = (), **options):
        super().__init__(**options)
        self.events: list[str] = []
        self.refuse, self.controlled = refuse, []

    def profiler_control(self, started):
        self.controlled.append(started.manifest.key)
        return FakeProfilerControl(self.events, self.refuse, log_path=started.log_path)

    def resource_probe(self, started):
        return RecordingProbe(self.events)

    def run_wrk(self, request, text_path, json_path, cpus=None):
        self.events.append(f"wrk {text_path.parent.name}")
        return super().run_wrk(request, text_path, json_path, cpus)


def _in_order(events: list[str]) -> list[str]:
    """The events with each run of samples (the sampler's thread reads at will) as one."""
    return [event for event, run in groupby(events)
            for _ in (range(1) if event == "sample" else run)]


def _run(tmp_path, backend, known=(ALPHA,), threads="10,5", **options):
    plan = make_plan(plan_settings("all", threads, "20", "1s", **options), known,
                     frozenset({0, 1}))
    return bench_run(backend, plan, tmp_path / "raw")


def test_the_profiler_runs_over_each_measured_run_and_never_the_primer_or_warm_up(tmp_path):
    backend = ProfilingBackend()
    outcomes, progress = _run(tmp_path, backend, profile="1", primer="1s", warmup="1s")
    stems = ("alpha+profiled-t10-c20", "alpha+profiled-t5-c20")
    assert _in_order(backend.events) == [
        "check,event=cpu-clock", "check,event=cpu", "wrk unmeasured", "wrk unmeasured",
        *(event.format(stem=stem) for stem in stems for event in MEASURED)]
    assert "alpha+profiled: profiling with cpu: the kernel's CPU clock is open" in progress
    for cell, stem in zip(outcomes[0].cells, stems):
        assert cell.profile_path == tmp_path / "raw" / f"{stem}.profile.json"
        record = record_from_dict(json.loads(cell.profile_path.read_text()))
        assert (record.event, record.interval, record.failure) == ("cpu", 5_000_000, None)
        assert (record.collapsed, record.flame_graph) == (f"{stem}.collapsed.txt",
                                                          f"{stem}.flame.html")
        assert (tmp_path / "raw" / record.collapsed).is_file()
    assert outcomes[0].record.profiled


def test_where_the_cpu_clock_is_closed_the_runs_are_profiled_with_itimer(tmp_path):
    backend = ProfilingBackend(refuse=("check,event=cpu-clock",))
    outcomes, progress = _run(tmp_path, backend, profile="1", threads="5")
    assert backend.events[:3] == ["check,event=cpu-clock", "check,event=itimer",
                                  "start,event=itimer,interval=5000000"]
    assert "profiling with itimer: perf events closed here (a fake)" in progress
    record = record_from_dict(json.loads(outcomes[0].cells[0].profile_path.read_text()))
    assert record.event == "itimer"


def test_a_server_the_profiler_cannot_attach_to_is_not_loaded_and_says_why(tmp_path):
    backend = ProfilingBackend(refuse=("check",))
    outcomes, progress = _run(tmp_path, backend, profile="1", primer="1s", warmup="1s")
    assert backend.wrk_calls == [] and backend.events == ["check,event=cpu-clock",
                                                          "check,event=itimer"]
    reason = ("async-profiler cannot profile it: `check,event=itimer` gave return code 200: "
              "[ERROR] Operation not permitted; its message is in the server's log, "
              "raw/alpha+profiled.log; PROFILE=0 measures it without the profiler")
    assert [(cell.failure, cell.profile_path) for cell in outcomes[0].cells] == \
        [(reason, None)] * 2
    lines = progress.splitlines()
    failed = next(i for i, line in enumerate(lines) if "FAILED" in line)
    assert "verified" in lines[failed - 1] and reason in lines[failed]
    assert not any("primer" in line for line in lines)


def test_both_ways_profile_only_the_profiled_server_and_never_the_reference(tmp_path):
    backend = ProfilingBackend()
    outcomes, _ = _run(tmp_path, backend, known=(reference_manifest(), ALPHA), profile="0,1",
                       ceiling="1", threads="5")
    assert [outcome.record.name for outcome in outcomes] == ["ref", "alpha", "alpha+profiled"]
    assert backend.controlled == ["alpha+profiled"]
    assert [cell.profile_path is not None for outcome in outcomes
            for cell in outcome.cells] == [False, False, True]
    assert backend.events.count("start,event=cpu,interval=5000000") == 1
    assert not list((tmp_path / "raw").glob("alpha-*.profile.json"))


def test_a_profiler_that_does_not_stop_leaves_the_run_standing(tmp_path):
    backend = ProfilingBackend(refuse=("stop",))
    outcomes, progress = _run(tmp_path, backend, profile="1", threads="5")
    (cell,) = outcomes[0].cells
    assert cell.failure is None and cell.text_path.is_file()
    record = record_from_dict(json.loads(cell.profile_path.read_text()))
    assert record.failure == "the profiler did not stop: return code 200"
    assert "no profile of this run: the profiler did not stop: return code 200" in progress


class Checked(ProfilingBackend):
    def check_available(self):
        self.events.append("check_available")

    def check_engines(self):
        pass

    def open_file_limit(self):
        return None

    def check_profiler(self):
        self.events.append("check_profiler")


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_the_profiler_is_checked_before_any_load_only_when_a_server_is_profiled(tmp_path):
    for profile, expected in (("0", ["check_available"]),
                              ("1", ["check_available", "check_profiler"])):
        backend = Checked()
        plan = make_plan(plan_settings("alpha", "5", "20", "1s", profile=profile),
                         (ALPHA.for_profile(False),), frozenset({0, 1}))
        preflight(plan, backend)
        assert backend.events == expected


class ProfilingOhaBackend(FakeOhaBackend):
    def __init__(self, *arguments, **options):
        super().__init__(*arguments, **options)
        self.events: list[str] = []

    def profiler_control(self, started):
        return FakeProfilerControl(self.events)

    def check_profiler(self):
        pass

    def run_oha(self, request, json_path, cpus=None):
        self.events.append(f"oha {json_path.parent.name} {request.rate_per_s:g}")
        return super().run_oha(request, json_path, cpus)


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_make_latency_profiles_each_measured_step_and_never_its_warm_up(tmp_path):
    backend = ProfilingOhaBackend({ALPHA.key + "+profiled": 1500.0})
    plan = make_latency_plan({"servers": "alpha", "ceiling": "0", "primer": "0", "warmup": "0",
                              "step-warmup": "1s", "duration": "1s", "rates": "1000,2000",
                              "cost-rate": "800", "profile": "1"}, (ALPHA,), frozenset({0, 1}))
    code = latency(plan, backend, tmp_path, tmp_path / "chart.png", tmp_path)
    step = ["oha unmeasured {rate}", "start,event=cpu,interval=5000000", "oha raw {rate}",
            "stop", "collect", "dump", "collect"]
    assert [event.split(" alpha")[0] for event in backend.events] == [
        "check,event=cpu-clock", "check,event=cpu",
        *(event.format(rate=rate) for rate in (1000, 2000, 800) for event in step)]
    result = read_results(tmp_path / LATEST / RESULTS_JSON)
    assert [step.verdict for step in result.latency.steps] == [
        StepVerdict.HELD, StepVerdict.P99, StepVerdict.HELD]
    raw = (tmp_path / LATEST / "raw").resolve()
    # The run ended, so its raw files are in its archive: listed as plain or archived alike.
    assert [name for name in raw_names(raw) if name.endswith(".profile.json")] == [
        "alpha+profiled-cost-q800.profile.json", "alpha+profiled-q1000.profile.json",
        "alpha+profiled-q2000.profile.json"]
    assert not [name for name in raw_names(raw / "unmeasured") if name.endswith(".profile.json")]
    assert code == 0
