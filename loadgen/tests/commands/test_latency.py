"""make latency's runner and command with a fake backend: the search driven by the step
verdicts read back from the files the steps left, the cost pass at the lowest maximum, and
a server that fails to start. No oha, no JVM: each step copies a captured oha run."""

from __future__ import annotations

import io

import pytest

from httplab.checking.conformance import CheckResult, Verification
from httplab.commands.latency import LatencySteps, latency
from httplab.commands.run_lifecycle import RunRecord
from httplab.model import EngineRecord, HostInfo, StepPurpose, StepVerdict
from httplab.results.store import read_results
from httplab.run_layout import LATEST, RESULTS_JSON
from httplab.running.latency_plan import make_latency_plan
from httplab.running.latency_progress import LatencyProgress
from httplab.running.run_context import RunContext

import httplab.running.runner as runner_module
from tests.support.fake_backend import FakeDatabase, FakeOhaBackend
from tests.support.plans import KNOWN

MANIFEST = KNOWN[0]


def _run(tmp_path, fake, **settings):
    manifests = (MANIFEST,)
    typed = {"servers": MANIFEST.name, "ceiling": "0", "primer": "0", "warmup": "0",
             "step-warmup": "0", "duration": "1s", **settings}
    plan = make_latency_plan(typed, manifests, frozenset({0, 1}))
    code = latency(plan, fake, tmp_path, tmp_path / "chart.png", tmp_path)
    return code, read_results(tmp_path / LATEST / RESULTS_JSON)


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_the_search_stops_at_the_capacity_and_the_cost_pass_runs_at_the_maximum(tmp_path):
    backend = FakeOhaBackend({MANIFEST.key: 3000.0})
    code, result = _run(tmp_path, backend)
    searched = [rate for _, rate, where in backend.oha_calls if where == "raw"]
    assert searched[:3] == [1000, 2000, 4000]
    (maximum,) = result.latency.maxima
    assert 0.95 * 3000 <= maximum.value <= 3000
    cost = result.latency.steps_of(MANIFEST.key, StepPurpose.COST)
    assert [step.offered_rate for step in cost] == [maximum.value]
    assert result.latency.cost_rate_source == "lowest maximum"
    assert code == 0


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_a_fixed_list_runs_every_rate_and_cost_rate_in_the_same_start(tmp_path):
    backend = FakeOhaBackend({MANIFEST.key: 1500.0})
    _, result = _run(tmp_path, backend, rates="500,1000,2000,4000", **{"cost-rate": "800"})
    steps = result.latency.steps
    assert [(s.offered_rate, s.purpose) for s in steps] == [
        (500, StepPurpose.LIST), (1000, StepPurpose.LIST), (2000, StepPurpose.LIST),
        (4000, StepPurpose.LIST), (800, StepPurpose.COST)]
    assert [s.verdict for s in steps[:4]] == [StepVerdict.HELD, StepVerdict.HELD,
                                              StepVerdict.P99, StepVerdict.P99]
    assert result.latency.maxima[0].value == 1000


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_a_server_that_does_not_start_fails_its_step_and_the_run(tmp_path):
    code, result = _run(tmp_path, FakeOhaBackend({MANIFEST.key: 1.0}, fail_start=True))
    (step,) = result.latency.steps
    assert step.verdict is StepVerdict.FAILED and "never became healthy" in step.reason
    assert result.latency.maxima[0].value is None
    assert code != 0


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_make_report_rebuilds_a_latency_run_identically(tmp_path):
    from httplab.commands.report import report

    _run(tmp_path, FakeOhaBackend({MANIFEST.key: 3000.0}))
    run_dir = (tmp_path / LATEST).resolve()
    before = (run_dir / RESULTS_JSON).read_text()
    assert (run_dir / "raw.tar.xz").is_file()  # the steps are read from the run's archive
    assert not list((run_dir / "raw").glob("*.oha.json"))
    assert report(run_dir, run_dir, None, tmp_path / "no-servers") == 0
    assert (run_dir / RESULTS_JSON).read_text() == before


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_the_cost_pass_warms_at_the_common_rate_as_long_as_the_warm_up(tmp_path):
    backend = FakeOhaBackend({MANIFEST.key: 3000.0})
    _run(tmp_path, backend, warmup="3s", **{"step-warmup": "1s"})
    unmeasured = {(name, seconds) for where, name, seconds in backend.durations
                  if where == "unmeasured"}
    assert {seconds for name, seconds in unmeasured if "-cost-" in name} == {3}
    assert {seconds for name, seconds in unmeasured if "-cost-" not in name} == {1}


@pytest.mark.shared_host  # the local backend checks 8080 is free
def test_a_latency_run_at_db_reads_a_fresh_database_sampled_beside_each_step(tmp_path,
                                                                             monkeypatch):
    backend = FakeOhaBackend({MANIFEST.key: 3000.0})
    backend.database = FakeDatabase(backend)
    monkeypatch.setattr(runner_module, "verify_database", lambda *arguments, **options: ())
    code, result = _run(tmp_path, backend, workload="db", rates="1000")
    assert code == 0 and backend.database.events[::2] == \
        [f"start {MANIFEST.key}.database.log"] * 2  # the list, then the cost pass
    steps = result.latency.steps
    assert steps and all(step.workload.key == "db" for step in steps)
    assert all(step.resources.database.unavailable == "no database process to sample"
               for step in steps)
    assert result.settings.database.version == "PostgreSQL 15.18"


class RemoteServerBackend(FakeOhaBackend):
    """SERVER_HOST's engine, as the Docker backend describes the machine it ran on."""

    ENGINE = EngineRecord("ssh://lab@server", "server", docker="27.5.1", hostname="server",
                          cores=4, images=(("httplab/alpha:latest", "sha256:abc"),))

    def engine_records(self):
        return (self.ENGINE,)


def test_a_latency_run_on_another_machine_records_its_engine_as_a_bench_does(tmp_path):
    settings = {"backend": "docker", "server-host": "ssh://lab@server"}
    _, result = _run(tmp_path, RemoteServerBackend({MANIFEST.key: 3000.0}), **settings)
    assert result.engines == (RemoteServerBackend.ENGINE,)


class CheckedAtOnce(FakeOhaBackend):
    def verify(self, started, workloads=()):
        """Passed at once: the checks take a second a start and are not this test's."""
        return Verification((CheckResult("answers", True),))


def test_repeat_auto_stops_the_search_once_the_maxima_agree_and_costs_as_many_rounds(tmp_path):
    """Both variants hold the same rates every round: the maxima's intervals have no width
    after the third round, the search stops there, and the cost pass runs as many."""
    backend = CheckedAtOnce({MANIFEST.key: 3000.0, f"{MANIFEST.key}@jdk17": 3000.0})
    result, progress = _steps_run(tmp_path, backend, repeat="auto", jdk="17,25",
                                  **{"max-repeat": "5"})
    assert (result.settings.repeat, result.settings.auto_repeat.max_repeat) == (3, 5)
    assert sorted({rate.server: len(rate.rounds) for rate in result.latency.maxima}.values()) \
        == [3, 3]
    cost_rounds = {step.repeat for step in result.latency.steps
                   if step.purpose is StepPurpose.COST}
    assert cost_rounds == {1, 2, 3}
    assert "round 3 of at most 5 done: every pair within ±5.0 %: no more rounds" in progress


def test_repeat_auto_on_the_cost_searches_three_rounds_and_narrows_the_cost_pass(tmp_path):
    """METRIC=cpu_per_request without COST_RATE: the cost pass measures the rule's figure;
    the fake measures no CPU, so no pair has it on both sides and it stops at the third."""
    backend = CheckedAtOnce({MANIFEST.key: 3000.0, f"{MANIFEST.key}@jdk17": 3000.0})
    result, progress = _steps_run(tmp_path, backend, repeat="auto", jdk="17,25",
                                  metric="cpu_per_request")
    assert {len(rate.rounds) for rate in result.latency.maxima} == {3}
    assert "round 3 of at most 10 done: no pair of variants measured on both sides" in progress
    assert progress.count("httplab: round ") == 3  # the cost pass's rounds only


def _steps_run(tmp_path, backend, **settings):
    """make latency's steps on the real Runner, without the lifecycle's files and charts:
    its result and progress."""
    typed = {"servers": MANIFEST.name, "ceiling": "0", "primer": "0", "warmup": "0",
             "step-warmup": "0", "duration": "1s", **settings}
    plan = make_latency_plan(typed, (MANIFEST,), frozenset({0, 1}))
    steps, output = LatencySteps(plan), io.StringIO()
    record = RunRecord(tmp_path, "2026-11-28T00-00-00Z", None, HostInfo(cores=2), (),
                       backend.versions())
    (tmp_path / "raw").mkdir()
    steps.run(RunContext(backend, plan.bench, tmp_path / "raw", LatencyProgress(plan, output)),
              record, record.outcomes.append)
    return steps.result(record), output.getvalue()
