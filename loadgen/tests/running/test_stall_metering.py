"""The stall meter in the runners, with a fake backend and a fake meter that records when it
starts and stops: around each measured run and step (inside the profiler, outside the
resource sampler), never around a primer, warm-up or a step's warm-up; its file is the
run's outcome. The host's meter as a real process stops on SIGTERM and leaves its JSON; and
around a real wrk run against a stand-in server, all on one CPU beside a SCHED_FIFO busy loop
that takes it for 40 ms every 300 ms, it sees the stalls and the verdict's words name them;
an oha step there is judged the host's (its latency, held or not, understates: oha froze
too), run again, and lowers no maximum, while the same step without the busy loop holds."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from httplab.commands import run_lifecycle
from httplab.commands.latency import latency
from httplab.loadtools.oha.command import OhaRequest, oha_arguments, oha_time_limit_s
from httplab.loadtools.oha.report import parse_oha_json
from httplab.model import StepVerdict
from httplab.outcomes import GeneratorOutcome
from httplab.results.store import read_results
from httplab.run_layout import LATEST, RESULTS_JSON
from httplab.running.latency_plan import make_latency_plan
from httplab.running.plan import make_plan
from httplab.running.progress import Progress
from httplab.running.run_context import RunContext
from httplab.running.runner import Runner
from httplab.running.engines import Engine
from httplab.running import stall_metering
from httplab.running.stall_metering import (HERE, REAL_TIME_SHARE_US, EngineStallMeter,
                                            HostStallMeter, host_stall_meter)
from httplab.running.wrk_cells import WrkCells
from httplab.results.collect import cells_from_outcomes, read_stalls
from httplab.run_layout import STALLS_SUFFIX, RunFiles
from httplab.results.host_load import host_load_notes, longest_stall
from httplab.results.step_verdict import StepJudgement, judge_step
from httplab.results.sustained import search_outcome
from httplab.running.rate_search import RateSpec, next_rate

from tests.running.test_runner_profiling import (ALPHA, ProfilingOhaBackend, RecordingProbe,
                                                 _in_order)
from tests.loadtools.oha.test_freezing import oha_executable
from tests.stalls_sample import BUSY_LOOP, CLEAN, ONE_STALL, STALLED, meter_json
from tests.support import fake_docker
from tests.support.stand_in import stand_in_url
from tests.support.fake_backend import FakeBackend
from tests.support.plans import plan_settings


class RecordingBackend(FakeBackend):
    def __init__(self, events: list[str]):
        super().__init__()
        self.events = events

    def resource_probe(self, started):
        return RecordingProbe(self.events)

    def run_wrk(self, request, text_path, json_path, cpus=None):
        self.events.append(f"wrk {text_path.parent.name}")
        return super().run_wrk(request, text_path, json_path, cpus)


def recording_meter(events: list[str], lateness_us: list[int] = STALLED):
    """A meter that records its start and stop and writes what the real one would, after
    waking with these lateness values."""
    @contextmanager
    def meter(out: Path, duration_s: float):
        events.append(f"meter start {out.name} {duration_s:g}")
        yield
        out.write_text(json.dumps(meter_json(lateness_us)))
        events.append("meter stop")
    return meter


def run_bench(tmp_path: Path, backend: FakeBackend, meter, threads: str = "10,5",
              phases: str = "1s"):
    """make bench's runner over alpha at 20 connections, with a primer and warm-up of
    `phases`, its raw files in tmp_path/raw; its outcomes."""
    plan = make_plan(plan_settings("all", threads, "20", "1s", primer=phases, warmup=phases),
                     (ALPHA,), frozenset({0, 1}))
    context = RunContext(backend, plan, tmp_path / "raw", Progress(plan, io.StringIO()), meter)
    return Runner(context, WrkCells(context), lambda outcome: None).run()


def test_the_meter_runs_around_each_measured_run_and_never_the_primer_or_warm_up(tmp_path):
    events: list[str] = []
    outcomes = run_bench(tmp_path, RecordingBackend(events), recording_meter(events))
    measured = ["meter start {stem}.stalls.json 1", "sample", "wrk raw", "sample", "meter stop"]
    stems = ("alpha-t10-c20", "alpha-t5-c20")
    assert _in_order(events) == ["wrk unmeasured", "wrk unmeasured",
                                 *(event.format(stem=stem) for stem in stems
                                   for event in measured)]
    assert [cell.stalls_path for cell in outcomes[0].cells] == [
        tmp_path / "raw" / f"{stem}.stalls.json" for stem in stems]


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_make_latency_meters_each_measured_step_and_never_its_warm_up(tmp_path, monkeypatch):
    backend = ProfilingOhaBackend({ALPHA.key + "+profiled": 1500.0})
    monkeypatch.setattr(run_lifecycle, "host_stall_meter",
                        lambda *_: recording_meter(backend.events, ONE_STALL))
    plan = make_latency_plan({"servers": "alpha", "ceiling": "0", "primer": "0", "warmup": "0",
                              "step-warmup": "1s", "duration": "1s", "rates": "1000,2000",
                              "cost-rate": "800", "profile": "1"}, (ALPHA,), frozenset({0, 1}))
    latency(plan, backend, tmp_path, tmp_path / "chart.png", tmp_path)
    step = ["oha unmeasured {rate}", "start,event=cpu,interval=5000000",
            "meter start alpha+profiled-q{rate}.stalls.json 1", "oha raw {rate}", "meter stop",
            "stop"]
    events = [event.split(" alpha")[0] if event.startswith("oha") else event
              for event in backend.events if not event.startswith(("check", "collect", "dump"))]
    assert events == [event.format(rate=rate).replace("-q800", "-cost-q800")
                      for rate in (1000, 2000, 800) for event in step]
    result = read_results(tmp_path / LATEST / RESULTS_JSON)
    assert [step.host_stalls.max_us for step in result.latency.steps] == [38_000] * 3


def test_without_load_generator_engines_the_meter_is_this_hosts_alone():
    meter = host_stall_meter((), "1")(Path("x.stalls.json"), 10)
    assert isinstance(meter, HostStallMeter) and meter.place == HERE


def test_a_meter_that_cannot_start_leaves_the_run_going(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))
    with HostStallMeter(tmp_path / "run.stalls.json", 1) as meter:
        ran = True
    assert ran and meter.process is None and not (tmp_path / "run.stalls.json").exists()


def test_the_host_meter_is_a_process_of_its_own_stopped_with_its_json(tmp_path):
    out = tmp_path / "run.stalls.json"
    meter = HostStallMeter(out, 1)
    assert meter.command()[:3] == [sys.executable, "-m", "httplab.loadtools.stall_meter"]
    with meter:
        time.sleep(1.0)
    data = json.loads(out.read_text())
    assert data["stopped_by"] == "SIGTERM" and data["place"] == HERE
    assert meter.process.returncode == 0


@contextmanager
def one_stalled_cpu(stalled: bool = True):
    """This process (and what it starts) on one CPU, beside a SCHED_FIFO busy loop that
    takes that CPU for 40 ms every 300 ms when `stalled`; stopped and unpinned after."""
    if subprocess.run(["chrt", "-f", "50", "true"], capture_output=True).returncode != 0:
        pytest.skip("chrt -f (SCHED_FIFO) is refused here: needs root or CAP_SYS_NICE")
    cpu, affinity = max(os.sched_getaffinity(0)), os.sched_getaffinity(0)
    busy = subprocess.Popen(["chrt", "-f", "50", "taskset", "-c", str(cpu), sys.executable,
                             "-c", BUSY_LOOP.format(seconds=20)]) if stalled else None
    try:
        os.sched_setaffinity(0, {cpu})
        yield
    finally:
        os.sched_setaffinity(0, affinity)
        if busy:
            busy.kill()
            busy.wait()


@pytest.mark.slow
def test_a_wrk_run_on_a_stalled_cpu_is_metered_as_stalled(tmp_path):
    out = tmp_path / "stand-in-t1-c4.stalls.json"
    url_of = stand_in_url("queue_server.py", "--service-ms", "0.2", "--lifetime-s", "60")
    url = next(url_of)
    try:
        with one_stalled_cpu(), host_stall_meter(False)(out, 3):
            subprocess.run(["wrk", "-t1", "-c4", "-d3s", url], capture_output=True, check=True,
                           timeout=30)
    finally:
        url_of.close()
    stalls = read_stalls(out)
    assert stalls.max_us >= 30_000 and stalls.stalled_share > 0.05
    assert "; the host stalled up to" in host_load_notes(None, 2, longest_stall((stalls,)))
    assert host_load_notes(None, 2, longest_stall((stalls,))).endswith(
        f"on CPU {max(os.sched_getaffinity(0))} (server and load tool)")  # it alone metered


def metered_oha_step(tmp_path: Path, name: str, stalled: bool) -> StepJudgement:
    """A 4 s oha step at 200 req/s against a stand-in server, the server, oha and the meter
    on one CPU (beside the busy loop when `stalled`), judged against p99 ≤ 10 ms."""
    out = tmp_path / f"{name}.stalls.json"
    request = OhaRequest(rate_per_s=200, duration_s=4, connections=16, url="")
    with one_stalled_cpu(stalled):
        url_of = stand_in_url("queue_server.py", "--service-ms", "0.2", "--lifetime-s", "30")
        try:
            request = replace(request, url=next(url_of))
            with host_stall_meter(False)(out, request.duration_s):
                run = subprocess.run([oha_executable(), *oha_arguments(request)],
                                     capture_output=True, text=True, check=True,
                                     timeout=oha_time_limit_s(request))
        finally:
            url_of.close()
    report = parse_oha_json(run.stdout, request.rate_per_s, name)
    return judge_step(report, None, 10_000, request.connections, None, read_stalls(out))


@pytest.mark.slow
@pytest.mark.skipif(oha_executable() is None, reason="needs oha: make oha")
def test_a_step_that_broke_on_a_stalled_cpu_is_the_hosts_and_leaves_the_maximum(tmp_path):
    stalled = metered_oha_step(tmp_path, "stalled", stalled=True)
    assert stalled.verdict is StepVerdict.HOST, stalled.reason
    assert "the host stalled up to" in stalled.reason  # held or not: oha froze with it
    assert "understates what users would see" in stalled.reason or "over the target" in (
        stalled.reason)
    clean = metered_oha_step(tmp_path, "clean", stalled=False)
    assert clean.verdict is StepVerdict.HELD, clean.reason
    history = ((200.0, stalled.verdict), (200.0, clean.verdict))
    assert next_rate(RateSpec(), history[:1]) == 200  # run again, not believed
    assert search_outcome(history) == (200.0, False)  # the host's step lowers nothing


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_a_rate_the_host_stalled_every_time_is_run_three_times_and_leaves_no_maximum(
        tmp_path, monkeypatch):
    backend = ProfilingOhaBackend({ALPHA.key: 1500.0})
    monkeypatch.setattr(run_lifecycle, "host_stall_meter",
                        lambda *_: recording_meter(backend.events, STALLED))
    plan = make_latency_plan({"servers": "alpha", "ceiling": "0", "primer": "0", "warmup": "0",
                              "step-warmup": "0", "duration": "1s", "rates": "1000,2000"},
                             (ALPHA,), frozenset({0, 1}))
    latency(plan, backend, tmp_path, tmp_path / "chart.png", tmp_path)
    result = read_results(tmp_path / LATEST / RESULTS_JSON)
    assert [(step.offered_rate, step.attempt, step.verdict.value)
            for step in result.latency.steps] == [(1000, attempt, "host") for attempt in (1, 2, 3)]
    (maximum,) = result.latency.maxima
    assert maximum.not_determined and maximum.broke_at[0].startswith(
        "not determined: 1000/s: p99 ")


# -- on the load generators' engines (LOADGEN_HOSTS), on a fake docker CLI --------------

ENGINES = (Engine("unix:///run/gen1.sock", "unix"), Engine("ssh://lab@gen2", "ssh"))


@pytest.fixture
def docker_log(tmp_path, monkeypatch) -> Path:
    return fake_docker.install(tmp_path, tmp_path / "docker-state", monkeypatch)


def _calls(log: Path, command: str) -> list[list[str]]:
    return [call for call in fake_docker.logged(log) if call[1] == command]


def _no_container_left(tmp_path: Path) -> bool:
    return not list((tmp_path / "docker-state").glob("*.json"))


def _containers(calls: list[list[str]]) -> set[str]:
    return {call[-1] for call in calls}


def _meters_containers(engines: tuple[Engine, ...]) -> set[str]:
    return {EngineStallMeter(engine, index, Path("x"), 1, None, {}).container
            for index, engine in enumerate(engines, start=1)}


def test_each_engine_runs_a_meter_in_a_container_around_the_run_that_goes_with_it(
        tmp_path, docker_log):
    out = tmp_path / "netty-t2-c20.stalls.json"
    with host_stall_meter(ENGINES, "1")(out, 1):
        time.sleep(0.3)
    files = RunFiles.of_output(out, STALLS_SUFFIX)
    records = [json.loads(path.read_text())
               for path in (out, files.engine_stalls(1), files.engine_stalls(2))]
    assert [record["place"] for record in records] == [
        HERE, "load generator 1 (unix:///run/gen1.sock)", "load generator 2 (ssh://lab@gen2)"]
    assert all(record["stopped_by"] == "SIGTERM" for record in records)
    run = _calls(docker_log, "run")
    assert sorted(call[0] for call in run) == sorted(engine.spec for engine in ENGINES)
    for call in run:
        options = " ".join(call[2:call.index("--entrypoint")])
        assert options.startswith("--rm --name httplab-wrk-") and (
            "--network none --user 0 --cap-add SYS_NICE --cpu-rt-runtime "
            f"{REAL_TIME_SHARE_US} --cpuset-cpus 1") in options
    assert _containers(_calls(docker_log, "kill")) == _meters_containers(ENGINES)
    assert not _calls(docker_log, "rm") and _no_container_left(tmp_path)


def test_the_engines_meters_start_before_the_hosts_and_stop_after_it(tmp_path, docker_log):
    out = tmp_path / "run.stalls.json"
    with host_stall_meter(ENGINES[:1])(out, 1):
        time.sleep(0.2)
    host, engine = (json.loads(path.read_text())
                    for path in (out, RunFiles.of_output(out, STALLS_SUFFIX).engine_stalls(1)))
    assert engine["started"]["wall_s"] < host["started"]["wall_s"]
    assert engine["ended"]["wall_s"] > host["ended"]["wall_s"]


def test_an_engine_that_gives_no_real_time_share_gets_the_meter_without_it(
        tmp_path, docker_log, monkeypatch):
    monkeypatch.setenv("FAKE_DOCKER_REFUSE_REAL_TIME", "1")
    meter = host_stall_meter(ENGINES[:1])
    for run in ("a", "b"):
        with meter(tmp_path / f"{run}.stalls.json", 1):
            time.sleep(0.1)
        record = json.loads((tmp_path / f"{run}.stalls.1.json").read_text())
        assert all(cpu["samples"] > 0 for cpu in record["cpus"]) and record["cpus"]
    first, second, third = _calls(docker_log, "run")
    assert "--cpu-rt-runtime" in first and "--cpu-rt-runtime" not in second + third
    note = third[third.index("--real-time-note") + 1]  # refused once: never asked again
    assert note.startswith("the engine gave no real-time share: docker: Error response")
    assert _no_container_left(tmp_path)


def test_ctrl_c_during_the_run_stops_every_meter_and_leaves_no_container(tmp_path, docker_log):
    with pytest.raises(KeyboardInterrupt):
        with host_stall_meter(ENGINES)(tmp_path / "run.stalls.json", 1):
            raise KeyboardInterrupt
    assert _containers(_calls(docker_log, "kill")) == _meters_containers(ENGINES)
    assert _no_container_left(tmp_path)


def test_a_meter_that_does_not_end_is_removed_by_its_name(tmp_path, docker_log, monkeypatch):
    monkeypatch.setenv("FAKE_DOCKER_IGNORE_KILL", "1")
    monkeypatch.setattr(stall_metering, "STOP_WAIT_S", 0.5)
    with host_stall_meter(ENGINES)(tmp_path / "run.stalls.json", 1):
        pass
    assert _containers(_calls(docker_log, "rm")) == _meters_containers(ENGINES)
    assert _no_container_left(tmp_path)
    assert not (tmp_path / "run.stalls.1.json").exists()  # no record rather than an empty one


def test_engines_without_a_meter_leave_no_record_and_the_hosts_names_them(
        tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no docker at all
    out = tmp_path / "run.stalls.json"
    with host_stall_meter(ENGINES)(out, 1):
        ran = True
    assert ran and not list(tmp_path.glob("run.stalls.*.json"))
    assert json.loads(out.read_text())["place"] == (
        "host; no meter on load generator 1 (unix:///run/gen1.sock): docker cannot be run; "
        "no meter on load generator 2 (ssh://lab@gen2): docker cannot be run")


class OneEngineBackend(RecordingBackend):
    """wrk on one other engine (LOADGEN_HOSTS): its report is the run's own."""

    load_generators = ENGINES[:1]

    def run_spread(self, request, stem, cpus=None):
        text = RunFiles(stem).text
        self.run_wrk(request, text, RunFiles(stem).json, cpus)
        return (GeneratorOutcome(1, ENGINES[0].spec, request.threads, request.connections,
                                 text, None, None),)


def engine_recording_meter(events: list[str]):
    """The host's recording meter, and the engine's record beside it (a clean one)."""
    host = recording_meter(events)

    @contextmanager
    def meter(out: Path, duration_s: float):
        with host(out, duration_s):
            yield
        engine = {**meter_json(CLEAN), "place": "load generator 1 (unix:///run/gen1.sock)"}
        RunFiles.of_output(out, STALLS_SUFFIX).engine_stalls(1).write_text(json.dumps(engine))
    return meter


def test_a_run_on_an_engine_keeps_its_meters_record_pooled_with_the_hosts(tmp_path):
    events: list[str] = []
    (outcome,) = run_bench(tmp_path, OneEngineBackend(events), engine_recording_meter(events),
                           threads="10", phases="0")
    (cell,) = outcome.cells
    assert cell.engine_stalls_paths == (tmp_path / "raw" / "alpha-t10-c20.stalls.1.json",)
    (stalls,) = cells_from_outcomes(list(outcome.cells))[0].host_stalls
    assert stalls.place == "host; load generator 1 (unix:///run/gen1.sock)"
    assert stalls.samples == 4000 and stalls.max_us == 38_000
    assert stalls.stalled_share == pytest.approx(0.1254 / 2)
