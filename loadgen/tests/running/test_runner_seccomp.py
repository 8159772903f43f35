"""TRANSPORT=io_uring's seccomp profile through the run: the try before any load only when a
server is asked to run on io_uring, and each server's record keeps the profile it ran under."""

from __future__ import annotations

import io
from contextlib import contextmanager
from dataclasses import replace
from types import SimpleNamespace

from httplab.commands import run_lifecycle
from httplab.results.assemble import first_record_per_server
from httplab.running.io_uring.probe import SHIPPED_PROFILE, seccomp_of
from httplab.running.plan import make_plan
from httplab.running.progress import Progress

from tests.support.fake_backend import FakeBackend, bench_runner
from tests.support.plans import CPUS, KNOWN, plan_settings


class ContainerBackend(FakeBackend):
    """The fake backend, saying the seccomp profile each server ran under as Docker's does
    where the engine's own profile blocks io_uring."""

    def __init__(self):
        super().__init__()
        self.tried: list[tuple[str, ...]] = []

    @contextmanager
    def serve(self, manifest, cpus=None, log_path=None, environment=None):
        with super().serve(manifest, cpus, log_path, environment) as started:
            yield replace(started, seccomp=seccomp_of(manifest, SHIPPED_PROFILE.name))

    def prepare(self, servers):
        pass

    def try_io_uring(self, servers):
        self.tried.append(tuple(server.key for server in servers))
        return "io_uring: tried"


def _plan(transport):
    return make_plan(plan_settings("alpha", "10", "20", "1s", transport=transport), KNOWN, CPUS)


def test_each_server_records_the_profile_it_ran_under(tmp_path):
    plan = _plan("epoll,io_uring")
    outcomes = bench_runner(ContainerBackend(), plan, tmp_path / "raw",
                            Progress(plan, io.StringIO()), lambda outcome: None).run()
    seccomp = {record.name: record.seccomp for record in first_record_per_server(outcomes)}
    assert seccomp == {"alpha@epoll": "default", "alpha@io_uring": SHIPPED_PROFILE.name}


def test_the_try_runs_after_prepare_only_when_a_server_asks_io_uring(capsys):
    for transport, tried in (("epoll,nio", []), ("", []),
                             ("epoll,io_uring", [("alpha@epoll", "alpha@io_uring")])):
        backend = ContainerBackend()
        steps = SimpleNamespace(plan=_plan(transport), starts_servers=lambda: True)
        run_lifecycle._prepare(steps, backend)
        assert backend.tried == tried, transport
    assert capsys.readouterr().err.count("httplab: io_uring: tried") == 1
