"""The runner's order and failure handling, with a fake backend: no wrk, no JVM."""

from __future__ import annotations

import io

import pytest

import httplab.running.runner as runner_module
from httplab.results.collect import cells_from_outcomes
from httplab.manifest import parse_manifest
from httplab.model import CellStatus
from httplab.running.plan import make_plan
from httplab.running.progress import Progress
from httplab.checking.conformance import CheckResult, Verification

from tests.support.fake_backend import FakeBackend, FakeDatabase, bench_runner
from tests.support.plans import MANIFEST, plan_settings, reference_manifest


def _run(tmp_path, backend, names=("alpha",), **options):
    known = tuple(parse_manifest(name, MANIFEST.replace('workers = "cpus"', "workers = 3"))
                  for name in names)
    plan = make_plan(plan_settings("all", "10,5", "20", "1s", **options), known, frozenset({0, 1}))
    finished = []
    outcomes = bench_runner(backend, plan, tmp_path / "raw", Progress(plan, io.StringIO()),
                           finished.append).run()
    assert finished == outcomes
    return outcomes, cells_from_outcomes([c for o in outcomes for c in o.cells])


def test_every_round_warms_the_server_again_then_measures_each_thread_setting(tmp_path):
    backend = FakeBackend()
    outcomes, cells = _run(tmp_path, backend, repeat="2", primer="1s", warmup="1s")
    one_round = [(8, "unmeasured"), (10, "unmeasured"), (10, "raw"), (5, "raw")]
    assert backend.wrk_calls == one_round * 2
    assert [(c.threads, len(c.runs), c.rounds, c.status) for c in cells] == \
        [(10, 2, (1, 2), CellStatus.OK), (5, 2, (1, 2), CellStatus.OK)]
    assert sorted(p.name for p in (tmp_path / "raw" / "unmeasured").glob("*.txt")) == [
        "alpha-primer-r1.txt", "alpha-primer-r2.txt", "alpha-warmup-r1.txt", "alpha-warmup-r2.txt"]
    log = (tmp_path / "raw" / "alpha.log").read_text()
    assert "--- httplab: round 1 of 2 ---" in log and "--- httplab: round 2 of 2 ---" in log
    assert all(usage.unavailable == "no process to sample" for c in cells for usage in c.resources)
    assert sorted(p.name for p in (tmp_path / "raw").glob("*.txt")) == [
        "alpha-t10-c20-r1.txt", "alpha-t10-c20-r2.txt", "alpha-t5-c20-r1.txt", "alpha-t5-c20-r2.txt"]
    assert outcomes[0].record.verification.startswith("all ")


def test_a_server_that_does_not_start_fails_every_cell_with_the_reason(tmp_path):
    backend = FakeBackend(fail_start=True)
    _, cells = _run(tmp_path, backend, warmup="1s")
    assert backend.wrk_calls == []
    assert {(c.status, c.reason) for c in cells} == {
        (CellStatus.FAILED, "container never became healthy")}


@pytest.mark.parametrize("backend_options, reason", [
    ({"wrk_exit": 1}, "warmup failed: wrk exited with 1: boom"),
    ({"dies_after_wrk_calls": 1}, "the server exited with code 137 during the warmup"),
], ids=["wrk-fails", "server-dies"])
def test_a_failing_warmup_stops_the_server_before_any_measured_run(tmp_path, backend_options,
                                                                   reason):
    backend = FakeBackend(**backend_options)
    _, cells = _run(tmp_path, backend, warmup="1s")
    assert backend.wrk_calls == [(10, "unmeasured")]
    assert all(c.reason == reason for c in cells)


def test_a_failing_measured_run_fails_its_cell_and_names_the_run(tmp_path):
    _, cells = _run(tmp_path, FakeBackend(wrk_exit=1), repeat="2")
    assert cells[0].status is CellStatus.FAILED
    assert cells[0].reason == "round 1: wrk exited with 1: boom; round 2: wrk exited with 1: boom"


def test_every_server_keeps_its_output_in_a_log_named_by_the_outcome(tmp_path):
    outcomes, _ = _run(tmp_path, FakeBackend())
    assert outcomes[0].record.log_file == "raw/alpha.log"
    assert (tmp_path / "raw" / "alpha.log").read_text() == "fake server starting\n"


def test_a_server_that_fails_to_start_still_names_its_log(tmp_path):
    outcomes, _ = _run(tmp_path, FakeBackend(fail_start=True))
    assert outcomes[0].record.log_file == "raw/alpha.log"
    assert (tmp_path / "raw" / "alpha.log").is_file()


def test_a_server_that_dies_during_a_measured_run_fails_that_run_and_skips_the_rest(tmp_path):
    backend = FakeBackend(dies_after_wrk_calls=1)
    _, cells = _run(tmp_path, backend)
    assert backend.wrk_calls == [(10, "raw")]
    assert cells[0].reason == "the server exited with code 137 during this run"
    assert len(cells[0].runs) == 1, "the figures wrk gave are kept"
    assert cells[1].reason == "the server exited with code 137 before this run"
    assert cells[1].runs == ()


def test_a_run_with_no_completed_request_fails_but_keeps_every_count(tmp_path):
    _, cells = _run(tmp_path, FakeBackend(report="reset-read-errors"))
    cell = cells[0]
    assert cell.status is CellStatus.FAILED
    assert cell.reason == ("no request completed in 1.00 s (socket errors: connect 0, read "
                           "2492, write 0, timeout 0; non-2xx/3xx 0)")
    (run,) = cell.runs
    assert (run.requests, run.bytes_read, run.errors.read, run.connections) == (0, 0, 2492, 20)


def test_wrk_aims_at_the_manifests_port_and_path_on_loopback(tmp_path):
    backend = FakeBackend()
    outcomes, _ = _run(tmp_path, backend, warmup="1s")
    port = _port_said(outcomes[0].record.startup_line)
    assert backend.urls == {f"http://127.0.0.1:{port}/"}


def test_rounds_rotate_the_servers_so_none_always_runs_first(tmp_path):
    backend = FakeBackend()
    outcomes, cells = _run(tmp_path, backend, names=("alpha", "beta", "gamma"), repeat="3")
    assert [outcome.record.name for outcome in outcomes] == [
        "alpha", "beta", "gamma", "beta", "gamma", "alpha", "gamma", "alpha", "beta"]
    assert all(cell.rounds == (1, 2, 3) for cell in cells)


def test_with_fairness_h2load_follows_each_measured_run_at_its_settings(tmp_path):
    backend = FakeBackend()
    outcomes, cells = _run(tmp_path, backend, fairness="1", warmup="1s")
    port = int(_port_said(outcomes[0].record.startup_line))
    assert backend.h2load_calls == [(10, 20, 1, "alpha-t10-c20", port),
                                    (5, 20, 1, "alpha-t5-c20", port)]
    assert [len(cell.fairness) for cell in cells] == [1, 1]
    assert cells[0].fairness[0].succeeded > 0 and cells[0].fairness[0].connection_bytes


def test_no_h2load_after_a_failed_measured_run_nor_without_fairness(tmp_path):
    failing = FakeBackend(wrk_exit=1)
    _run(tmp_path / "a", failing, fairness="1")
    quiet = FakeBackend()
    _run(tmp_path / "b", quiet, fairness="0")
    assert failing.h2load_calls == quiet.h2load_calls == []


def test_an_h2load_that_fails_leaves_the_wrk_cell_as_it_was(tmp_path):
    _, cells = _run(tmp_path, FakeBackend(h2load="hung-c50"), fairness="1")
    assert [cell.status for cell in cells] == [CellStatus.OK, CellStatus.OK]


class WorkloadCheckBackend(FakeBackend):
    """The common checks pass; the json workload's own check fails."""

    def __init__(self):
        super().__init__()
        self.verified_workloads = []

    def verify(self, started, workloads=()):
        self.verified_workloads.append(tuple(workload.key for workload in workloads))
        return Verification((CheckResult("GET /", True),
                             CheckResult("GET /json", False, "no such path", workload="json")))


def test_each_workload_is_warmed_and_measured_and_a_failed_check_skips_only_its_own(tmp_path):
    backend = WorkloadCheckBackend()
    known = (reference_manifest(),
             parse_manifest("alpha", MANIFEST.replace('workers = "cpus"', "workers = 3")))
    plan = make_plan(plan_settings("alpha", "10", "20", "1s", warmup="1s", ceiling="1",
                                   workload="plaintext,json,blocking", delay_ms="7"),
                     known, frozenset({0, 1}))
    outcomes = bench_runner(backend, plan, tmp_path / "raw", Progress(plan, io.StringIO()),
                           lambda outcome: None).run()
    cells = cells_from_outcomes([c for o in outcomes for c in o.cells])
    assert backend.verified_workloads == [("plaintext", "json"),
                                          ("plaintext", "json", "blocking-7ms")]
    assert [(c.server, c.workload.key, c.status) for c in cells] == [
        ("ref", "plaintext", CellStatus.OK), ("ref", "json", CellStatus.FAILED),
        ("alpha", "plaintext", CellStatus.OK), ("alpha", "json", CellStatus.FAILED),
        ("alpha", "blocking-7ms", CellStatus.OK)]
    assert cells[3].reason == "not loaded: the json check failed: GET /json: no such path"
    assert {url.split(":", 2)[2].split("/", 1)[1] for url in backend.urls} == {
        "", "blocking?ms=7"}
    assert sorted(p.name for p in (tmp_path / "raw").glob("alpha*.txt")) == [
        "alpha-blocking-7ms-t10-c20.txt", "alpha-t10-c20.txt"]
    assert sorted(p.name for p in (tmp_path / "raw" / "unmeasured").glob("alpha*.txt")) == [
        "alpha-blocking-7ms-warmup.txt", "alpha-warmup.txt"]


def _database_run(tmp_path, monkeypatch, **database):
    backend = FakeBackend()
    backend.database = FakeDatabase(backend, **database)
    checked = []
    monkeypatch.setattr(runner_module, "verify_database",
                        lambda host, port, workloads, query, **_: checked.append(
                            tuple(w.key for w in workloads)) or (CheckResult("GET /db", True,
                                                                             workload="db"),))
    known = (reference_manifest(),
             parse_manifest("alpha", MANIFEST.replace('workers = "cpus"', "workers = 3")))
    plan = make_plan(plan_settings("alpha", "10", "20", "1s", ceiling="1",
                                   workload="plaintext,db"), known, frozenset({0, 1}))
    outcomes = bench_runner(backend, plan, tmp_path / "raw", Progress(plan, io.StringIO()),
                           lambda outcome: None).run()
    return backend, checked, outcomes, cells_from_outcomes([c for o in outcomes for c in o.cells])


def test_a_server_measured_at_db_gets_a_fresh_database_the_reference_none(tmp_path, monkeypatch):
    backend, checked, outcomes, cells = _database_run(tmp_path, monkeypatch)
    assert backend.database.events == ["start alpha.database.log", "stop"]
    assert backend.environments[0] is None  # the reference, without a database
    assert backend.environments[1]["DB_PORT"] == "15432"
    assert checked == [("plaintext", "db")]
    assert [o.database.version if o.database else None for o in outcomes] == \
        [None, "PostgreSQL 15.18"]
    assert [(c.server, c.workload.key, c.status) for c in cells] == [
        ("ref", "plaintext", CellStatus.OK), ("alpha", "plaintext", CellStatus.OK),
        ("alpha", "db", CellStatus.OK)]
    assert all(usage.database and usage.database.unavailable == "no database process to sample"
               for c in cells if c.workload.key == "db" for usage in c.resources)


def test_a_database_that_does_not_start_fails_only_its_servers_cells(tmp_path, monkeypatch):
    backend, checked, _, cells = _database_run(
        tmp_path, monkeypatch, fail_start="the database did not start: port 15432 is taken")
    assert checked == [] and backend.database.events == ["start alpha.database.log"]
    assert [(c.server, c.status) for c in cells] == [
        ("ref", CellStatus.OK), ("alpha", CellStatus.FAILED), ("alpha", CellStatus.FAILED)]
    assert cells[1].reason == "the database did not start: port 15432 is taken"


def test_a_database_that_stops_fails_the_runs_it_could_not_serve(tmp_path, monkeypatch):
    # wrk calls: the reference's one, then alpha's plaintext: the database stops after it.
    _, _, _, cells = _database_run(tmp_path, monkeypatch, dies_after_wrk_calls=2)
    assert [(c.server, c.workload.key, c.status) for c in cells] == [
        ("ref", "plaintext", CellStatus.OK), ("alpha", "plaintext", CellStatus.FAILED),
        ("alpha", "db", CellStatus.FAILED)]
    assert "the database exited with code 1" in cells[1].reason


def _port_said(startup_line: str) -> str:
    return startup_line.split(" bind=127.0.0.1:", 1)[1].split()[0]
