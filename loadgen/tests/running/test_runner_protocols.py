"""make bench's load tool by the server's protocol: wrk for h1 and h1-tls (https), h2load
for h2c and h2 at the plan's streams, its runs read back from raw/ as make report reads
them; oha's request for make latency per protocol."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest

from httplab.axes import H1, H1_TLS, H2, H2C
from httplab.loadtools.wrk.command import WrkRequest
from httplab.manifest import parse_manifest
from httplab.model import CellStatus
from httplab.results.collect import cells_from_outcomes, find_raw_files
from httplab.running.measure import H2LOAD_HERE_ONLY, Measurer, closed_loop_tool
from httplab.running.plan import make_plan
from httplab.running.progress import Progress
from httplab.running.run_context import RunContext

from tests.support.fake_backend import FakeBackend, bench_run
from tests.support.plans import MANIFEST, plan_settings

SERVES_ALL = parse_manifest("alpha", MANIFEST.replace('workers = "cpus"', "workers = 3")
                            + 'protocols = "h1,h1-tls,h2c,h2"\n'
                            + 'protocols_source = "the test\'s own"\n')


@pytest.mark.parametrize("protocol, tool", [(H1, "wrk"), (H1_TLS, "wrk"), (H2C, "h2load"),
                                            (H2, "h2load")])
def test_the_closed_loop_tool_is_chosen_by_the_protocol(protocol, tool):
    assert closed_loop_tool(protocol) == tool


def _run(tmp_path, backend, protocol, **options):
    plan = make_plan(plan_settings("alpha", "2", "20", "1s", protocol=protocol, **options),
                     (SERVES_ALL,), frozenset({0, 1}))
    return bench_run(backend, plan, tmp_path / "raw")


def test_an_h2c_cell_is_measured_by_h2load_at_the_plans_streams_and_read_back(tmp_path):
    backend = FakeBackend()
    outcomes, progress = _run(tmp_path, backend, "h2c", streams="2", warmup="1s")
    assert backend.wrk_calls == []
    assert [(threads, streams, folder, logged) for threads, streams, _, folder, logged
            in backend.h2load_runs] == [(2, 2, "unmeasured", False), (2, 2, "raw", True)]
    assert all(url.startswith("http://") for url in backend.urls)
    assert "h2load -t2 -c20 -m2 -D1 (h2c)" in progress
    raw = tmp_path / "raw"
    assert sorted(path.name for path in raw.glob("alpha@h2c-t2-c20.*")) == [
        "alpha@h2c-t2-c20.h2load-latency.json", "alpha@h2c-t2-c20.h2load-run.txt",
        "alpha@h2c-t2-c20.resources.json"]
    for cells in (cells_from_outcomes([c for o in outcomes for c in o.cells]),
                  cells_from_outcomes([found.outcome() for found in find_raw_files(raw)])):
        (cell,) = cells
        assert (cell.server, cell.status) == ("alpha@h2c", CellStatus.OK)
        assert [(run.tool, run.protocol, run.streams) for run in cell.runs] == \
            [("h2load", "h2c", 2)]


def test_an_h2_cell_speaks_https_and_fails_when_h2load_spoke_another_protocol(tmp_path):
    backend = FakeBackend()
    backend.h2load_run = "nginx-h1tls-asked-h2"
    outcomes, _ = _run(tmp_path, backend, "h2")
    assert all(url.startswith("https://") for url in backend.urls)
    (cell,) = cells_from_outcomes([c for o in outcomes for c in o.cells])
    assert cell.status == CellStatus.FAILED
    assert cell.reason.endswith("and spoke http/1.1")


def test_an_h1_tls_cell_is_measured_by_wrk_on_https(tmp_path):
    backend = FakeBackend()
    outcomes, progress = _run(tmp_path, backend, "h1-tls")
    assert backend.wrk_calls and not getattr(backend, "h2load_runs", [])
    assert all(url.startswith("https://") for url in backend.urls)
    assert "wrk -t2 -c20 -d1s (h1-tls)" in progress


@pytest.mark.parametrize("protocol, said", [
    ("h2c", "fairness: not measured over HTTP/2 (streams share connections)"),
    ("h1-tls", None)])
def test_fairness_is_h2load_h1_on_http1_and_said_unmeasured_over_http2(tmp_path, protocol, said):
    backend = FakeBackend()
    _, progress = _run(tmp_path, backend, protocol, fairness="1")
    if said:
        assert said in progress and backend.h2load_calls == []
    else:
        assert [call[3] for call in backend.h2load_calls] == ["alpha@h1-tls-t2-c20"]


def test_h2load_on_other_engines_fails_the_run_saying_so(tmp_path):
    backend = FakeBackend()
    backend.load_generators = ("an engine",)
    plan = make_plan(plan_settings("alpha", "2", "20", "1s", protocol="h2"), (SERVES_ALL,),
                     frozenset({0, 1}))
    measurer = Measurer(RunContext(backend, plan, tmp_path, Progress(plan, io.StringIO())))
    outcome = measurer._h2load(WrkRequest(2, 20, "1s", 1, "https://127.0.0.1:1/"),
                               SimpleNamespace(), sampler=None)
    assert outcome.failure == H2LOAD_HERE_ONLY
