"""The runner's order and failure handling, with a fake backend: no wrk, no JVM."""

from __future__ import annotations

import io
import shutil
from contextlib import contextmanager
from dataclasses import replace

from httplab.backends.base import BackendError, StartedServer, WrkOutcome
from httplab.collect import cells_from_outcomes
from httplab.manifest import parse_manifest
from httplab.model import CellStatus
from httplab.plan import Options, make_plan
from httplab.progress import Progress
from httplab.resources import UnavailableProbe
from httplab.runner import Runner
from httplab.startup import parse_startup_line

from .conftest import FIXTURES
from .fake_server import FakeServer, hello_answer
from .test_plan import MANIFEST

WRK = FIXTURES / "wrk"
READY = ("httplab-ready framework=X version=1 transport=epoll workers={w} observed_workers={w} "
         "bind=127.0.0.1:{port}")


class FakeBackend:
    """Serves a fake hello-world server and 'runs' wrk by copying a captured report."""

    name = "fake"

    def __init__(self, fail_start: bool = False, wrk_exit: int = 0):
        self.fail_start, self.wrk_exit = fail_start, wrk_exit
        self.wrk_calls: list[tuple[int, str]] = []

    @contextmanager
    def serve(self, manifest, cpus=None):
        if self.fail_start:
            raise BackendError("container never became healthy")
        with FakeServer(lambda path: hello_answer(path, server="X")) as server:
            port_manifest = replace(manifest, port=server.port)
            line = READY.format(w=manifest.expected_workers(), port=server.port)
            yield StartedServer(port_manifest, parse_startup_line(line), 0.5, pid=None)

    def resource_probe(self, started):
        return UnavailableProbe("no process to sample")

    def run_wrk(self, request, text_path, json_path, cpus=None):
        self.wrk_calls.append((request.threads, text_path.parent.name))
        shutil.copy(WRK / "nginx-hello.txt", text_path)
        shutil.copy(WRK / "nginx-hello.json", json_path)
        return WrkOutcome(self.wrk_exit, "boom" if self.wrk_exit else "")


def _run(tmp_path, backend, **options):
    known = (parse_manifest("alpha", MANIFEST.replace('workers = "cpus"', "workers = 3")),)
    plan = make_plan("all", "10,5", "20", "1s", known, Options(**options), frozenset({0, 1}))
    finished = []
    outcomes = Runner(backend, plan, tmp_path / "raw", Progress(plan, io.StringIO()),
                      finished.append).run()
    assert finished == outcomes
    return outcomes, cells_from_outcomes([c for o in outcomes for c in o.cells])


def test_unmeasured_phases_come_first_then_repeats_interleave_across_threads(tmp_path):
    backend = FakeBackend()
    outcomes, cells = _run(tmp_path, backend, repeat="2", primer="1s", warmup="1s")
    assert backend.wrk_calls == [(8, "unmeasured"), (10, "unmeasured"),
                                 (10, "raw"), (5, "raw"), (10, "raw"), (5, "raw")]
    assert [(c.threads, len(c.runs), c.status) for c in cells] == \
        [(10, 2, CellStatus.OK), (5, 2, CellStatus.OK)]
    assert all(usage.unavailable == "no process to sample" for c in cells for usage in c.resources)
    assert sorted(p.name for p in (tmp_path / "raw").glob("*.txt")) == [
        "alpha-t10-c20-r1.txt", "alpha-t10-c20-r2.txt", "alpha-t5-c20-r1.txt", "alpha-t5-c20-r2.txt"]
    assert outcomes[0].verification.passed


def test_a_server_that_does_not_start_fails_every_cell_with_the_reason(tmp_path):
    backend = FakeBackend(fail_start=True)
    _, cells = _run(tmp_path, backend, warmup="1s")
    assert backend.wrk_calls == []
    assert {(c.status, c.reason) for c in cells} == {
        (CellStatus.FAILED, "container never became healthy")}


def test_a_failing_warmup_stops_the_server_before_any_measured_run(tmp_path):
    backend = FakeBackend(wrk_exit=1)
    _, cells = _run(tmp_path, backend, warmup="1s")
    assert backend.wrk_calls == [(10, "unmeasured")]
    assert all(c.reason == "warmup failed: wrk exited with 1: boom" for c in cells)


def test_a_failing_measured_run_fails_its_cell_and_names_the_run(tmp_path):
    _, cells = _run(tmp_path, FakeBackend(wrk_exit=1), repeat="2")
    assert cells[0].status is CellStatus.FAILED
    assert cells[0].reason == "run 1: wrk exited with 1: boom; run 2: wrk exited with 1: boom"
