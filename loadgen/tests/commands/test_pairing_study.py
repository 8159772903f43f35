"""make pairing-study's flow against stand-in servers (the tests' hello world, in this
process, both sides at once on 127.0.0.1:18181 and :18182), no JVM and no Docker: with
wrk's captured report, its order, its teardown on Ctrl-C and on a failure, and what it
writes; and, slow, under the real wrk with tiny durations."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from httplab.commands.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK
from httplab.commands.pairing_study import pairing_study, side_backends
from httplab.paths import LUA_SCRIPT
from httplab.running.backend_error import BackendError
from httplab.running.backends.base import WrkOutcome
from httplab.running.backends.local import LocalBackend
from httplab.studies.pairing_plan import make_pairing_plan

from tests.support.fake_backend import FakeBackend, FakeOhaBackend
from tests.support.plans import CPUS, KNOWN

PORTS = (18181, 18182)
TINY = {"servers": "alpha", "threads": "1", "connections": "4", "duration": "1s",
        "primer": "0", "warmup": "1s", "rounds": "3", "starts": "3", "pairs": "2"}


class TwoSidesStandIn(FakeOhaBackend):
    """The fake backend's hello world on the port each side's manifest names, several at
    once; it records which ports are up and the most that ever were, and each wrk URL."""

    def __init__(self, interrupt_at: int | None = None, fail_second_side: bool = False):
        super().__init__({})
        self.up: set[int] = set()
        self.most_up, self.loaded = 0, []
        self.interrupt_at, self.fail_second_side = interrupt_at, fail_second_side

    @contextmanager
    def serve(self, manifest, cpus=None, log_path=None, environment=None):
        if self.fail_second_side and manifest.port == PORTS[1]:
            raise BackendError("container never became healthy")
        self.server_port = manifest.port
        with FakeBackend.serve(self, manifest, cpus, log_path, environment) as started:
            self.up.add(manifest.port)
            self.most_up = max(self.most_up, len(self.up))
            try:
                yield started
            finally:
                self.up.discard(manifest.port)

    def run_wrk(self, request, text_path, json_path, cpus=None):
        self.loaded.append(request.url)
        if self.interrupt_at is not None and len(self.loaded) >= self.interrupt_at:
            raise KeyboardInterrupt
        return super().run_wrk(request, text_path, json_path, cpus)


def _plan(tmp_path):
    return make_pairing_plan({**TINY, "out": str(tmp_path / "study" / "pairing")}, KNOWN, CPUS,
                             PORTS)


@pytest.mark.slow
def test_the_study_runs_both_designs_interleaved_and_writes_its_two_files(tmp_path):
    plan, backend = _plan(tmp_path), TwoSidesStandIn()
    assert pairing_study(plan, (backend, backend), plan.out) == EXIT_OK
    assert backend.up == set() and backend.most_up == 2  # both sides at once, then none
    a, b = (f"http://127.0.0.1:{port}/" for port in PORTS)
    # Whole round 1 (A then B: a warm-up and a run each), then start 1: both warmed, A B B A.
    assert backend.loaded[:10] == [a, a, b, b, a, b, a, b, b, a]
    document = json.loads(plan.out.with_suffix(".json").read_text())
    assert len(document["whole_rounds"]) == 3 and len(document["alternating_starts"]) == 3
    assert {len(start["pairs"]) for start in document["alternating_starts"]} == {2}
    assert [one["precision"] for one in document["findings"]["verdicts"]] == [0.05, 0.1]
    page = plan.out.with_suffix(".md").read_text()
    assert "| ±5% |" in page and "| ±10% |" in page and document["date"] in page


@pytest.mark.parametrize("backend, code", [
    (TwoSidesStandIn(interrupt_at=8), EXIT_INTERRUPTED),  # in start 1's pairs
    (TwoSidesStandIn(fail_second_side=True), EXIT_FAILED),  # B never starts
])
def test_every_server_is_stopped_and_nothing_written_when_the_study_stops(tmp_path, backend,
                                                                           code):
    plan = _plan(tmp_path)
    assert pairing_study(plan, (backend, backend), plan.out) == code
    assert backend.up == set()
    assert not plan.out.parent.exists()


def test_a_taken_port_stops_the_study_before_any_load(tmp_path):
    from tests.fake_server import FakeServer, hello_answer

    plan, backend = _plan(tmp_path), TwoSidesStandIn()
    with FakeServer(lambda request: hello_answer(request), port=PORTS[1]):
        assert pairing_study(plan, (backend, backend), plan.out) == 2
    assert backend.loaded == []


def test_a_backend_that_serves_one_server_at_a_time_gets_a_second_beside_it(repo):
    from httplab.running.backends.docker import DockerBackend

    docker = DockerBackend(repo)
    first, second = side_backends(docker)
    assert first is docker and second.project != docker.project
    local = LocalBackend(repo / "servers", LUA_SCRIPT)
    assert side_backends(local) == (local, local)


class RealWrkStandIn(TwoSidesStandIn):
    """The stand-ins loaded by the real wrk and done.lua."""

    def __init__(self, servers_dir):
        super().__init__()
        self.local = LocalBackend(servers_dir, LUA_SCRIPT)

    def run_wrk(self, request, text_path, json_path, cpus=None) -> WrkOutcome:
        self.loaded.append(request.url)
        return self.local.run_wrk(request, text_path, json_path, cpus)


@pytest.mark.slow
def test_the_study_under_real_load_measures_a_spread_in_each_design(tmp_path, repo):
    plan, backend = _plan(tmp_path), RealWrkStandIn(repo / "servers")
    assert pairing_study(plan, (backend, backend), plan.out) == EXIT_OK
    found = json.loads(plan.out.with_suffix(".json").read_text())["findings"]
    assert found["whole_round_log_sd"] > 0 and found["sigma_w"] > 0
    assert found["sigma_b_upper"] >= found["sigma_b"] >= 0
    assert found["pair_seconds"] >= 2 * plan.bench.duration_s
    assert all(one["whole"] and one["alternating"] for one in found["verdicts"])
