"""The first progress line of make bench and make latency names the profiler, the servers
it runs in and the event asked, when some server is profiled (PROFILE=1 or 0,1)."""

from __future__ import annotations

import io

import pytest

from httplab.running.latency_plan import make_latency_plan
from httplab.running.latency_progress import LatencyProgress
from httplab.running.plan import make_plan
from httplab.running.progress import Progress, profiler_text

from tests.support.plans import CPUS, PROFILE_KNOWN, plan_settings


def _bench_plan(servers: str = "all", **options):
    return make_plan(plan_settings(servers, "2", "10", "1s", ceiling="1", **options), PROFILE_KNOWN,
                     CPUS)


def _first_line(progress) -> str:
    progress.announce("docker")
    return progress.stream.getvalue().splitlines()[0]


@pytest.mark.parametrize("options, said", [
    ({"profile": "0"}, ""),
    ({"profile": "1"}, "; async-profiler in alpha+profiled, beta+profiled (PROFILE_EVENT=cpu)"),
    ({"profile": "0,1", "profile_event": "wall"},
     "; async-profiler in alpha+profiled, beta+profiled (PROFILE_EVENT=wall)"),
    ({"profile": "1", "servers": "alpha,ref"},
     "; async-profiler in alpha+profiled (PROFILE_EVENT=cpu)"),
])
def test_the_profiler_is_named_with_its_servers_and_event_only_when_one_runs(options, said):
    assert profiler_text(_bench_plan(**options)) == said


def test_make_bench_says_it_at_the_end_of_its_first_line():
    line = _first_line(Progress(_bench_plan(profile="0,1"), io.StringIO()))
    assert line.startswith("httplab: 5 servers (ref, alpha, alpha+profiled, beta, beta+profiled)")
    assert line.endswith("; async-profiler in alpha+profiled, beta+profiled "
                         "(PROFILE_EVENT=cpu)")


def test_make_bench_without_the_profiler_does_not_mention_it():
    assert "async-profiler" not in _first_line(Progress(_bench_plan(), io.StringIO()))


@pytest.mark.parametrize("profile, said", [
    ("1", "; async-profiler in alpha+profiled (PROFILE_EVENT=itimer)"),
    ("0", None),
])
def test_make_latency_says_it_at_the_end_of_its_first_line(profile, said):
    plan = make_latency_plan({"servers": "alpha", "ceiling": "0", "profile": profile,
                              "profile-event": "itimer"}, PROFILE_KNOWN, CPUS)
    line = _first_line(LatencyProgress(plan, io.StringIO()))
    assert line.startswith("httplab latency: ")
    if said is None:
        assert "async-profiler" not in line
    else:
        assert line.endswith(said)
