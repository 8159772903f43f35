"""make latency's runner and command with a fake backend: the search driven by the step
verdicts read back from the files the steps left, the cost pass at the lowest maximum, and
a server that fails to start. No oha, no JVM: each step copies a captured oha run."""

from __future__ import annotations

import io
import shutil

from httplab.commands.latency import latency
from httplab.model import StepPurpose, StepVerdict
from httplab.results.store import read_results
from httplab.run_layout import LATEST, RESULTS_JSON, parse_step_name
from httplab.running.backends.base import WrkOutcome
from httplab.running.latency_plan import make_latency_plan
from httplab.running.resources.probes import UnavailableProbe

from tests.conftest import FIXTURES
from tests.test_plan import KNOWN
import httplab.running.runner as runner_module
from tests.test_runner import FakeBackend, FakeDatabase

OHA = FIXTURES / "oha"
MANIFEST = KNOWN[0]


class FakeOhaBackend(FakeBackend):
    """'Runs' oha by copying a capture that held (netty-5000) below the server's capacity
    and one whose p99 broke the target (freezing-500) above it."""

    def __init__(self, capacity: dict[str, float], **options):
        super().__init__(**options)
        self.capacity, self.oha_calls, self.durations = capacity, [], []

    def check_oha(self, *arguments):
        pass

    check_available = check_engines = prepare = check_oha

    def open_file_limit(self):
        return None

    def engine_records(self):
        return ()

    def versions(self):
        return {"oha": "oha 1.16.0"}

    def resource_probe(self, started):
        return UnavailableProbe("no process to sample")

    def run_oha(self, request, json_path, cpus=None):
        server = parse_step_name(json_path.name).server
        self.oha_calls.append((server, request.rate_per_s, json_path.parent.name))
        self.durations.append((json_path.parent.name, json_path.name, request.duration_s))
        held = request.rate_per_s <= self.capacity[server]
        shutil.copy(OHA / ("netty-5000.json" if held else "freezing-500.json"), json_path)
        return WrkOutcome(0, "")


def _run(tmp_path, backend, **settings):
    manifests = (MANIFEST,)
    typed = {"servers": MANIFEST.name, "ceiling": "0", "primer": "0", "warmup": "0",
             "step-warmup": "0", "duration": "1s", **settings}
    plan = make_latency_plan(typed, manifests, frozenset({0, 1}))
    code = latency(plan, backend, tmp_path, tmp_path / "chart.png", tmp_path)
    return code, read_results(tmp_path / LATEST / RESULTS_JSON)


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


def test_a_server_that_does_not_start_fails_its_step_and_the_run(tmp_path):
    code, result = _run(tmp_path, FakeOhaBackend({MANIFEST.key: 1.0}, fail_start=True))
    (step,) = result.latency.steps
    assert step.verdict is StepVerdict.FAILED and "never became healthy" in step.reason
    assert result.latency.maxima[0].value is None
    assert code != 0


def test_make_report_rebuilds_a_latency_run_identically(tmp_path):
    from httplab.commands.report import report

    _run(tmp_path, FakeOhaBackend({MANIFEST.key: 3000.0}))
    run_dir = (tmp_path / LATEST).resolve()
    before = (run_dir / RESULTS_JSON).read_text()
    assert report(run_dir, run_dir, None, tmp_path / "no-servers") == 0
    assert (run_dir / RESULTS_JSON).read_text() == before


def test_the_cost_pass_warms_at_the_common_rate_as_long_as_the_warm_up(tmp_path):
    backend = FakeOhaBackend({MANIFEST.key: 3000.0})
    _run(tmp_path, backend, warmup="3s", **{"step-warmup": "1s"})
    unmeasured = {(name, seconds) for where, name, seconds in backend.durations
                  if where == "unmeasured"}
    assert {seconds for name, seconds in unmeasured if "-cost-" in name} == {3}
    assert {seconds for name, seconds in unmeasured if "-cost-" not in name} == {1}


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
