"""PROFILE and PROFILE_EVENT in the plan: each framework once per profile value, the
reference once and unprofiled, the record, and every bad value stopped with one line."""

from __future__ import annotations

import pytest

from httplab.bench_settings import BENCH_SETTINGS
from httplab.plan_error import PlanError
from httplab.model import PROFILE_EVENTS
from httplab.running.latency_plan import make_latency_plan
from httplab.running.plan import make_plan, settings_of

from tests.support.plans import CPUS, PROFILE_KNOWN, plan_settings

def _plan(**options):
    return make_plan(plan_settings("all", "2", "10", "1s", **options), PROFILE_KNOWN, CPUS)


@pytest.mark.parametrize("profile, keys, profiled", [
    ("0", ["alpha", "beta"], [False, False]),
    ("1", ["alpha+profiled", "beta+profiled"], [True, True]),
    ("0,1", ["alpha", "alpha+profiled", "beta", "beta+profiled"], [False, True, False, True]),
    ("1,0", ["alpha+profiled", "alpha", "beta+profiled", "beta"], [True, False, True, False]),
])
def test_each_framework_runs_once_per_profile_value_side_by_side(profile, keys, profiled):
    plan = _plan(profile=profile)
    assert [server.key for server in plan.servers] == keys
    assert [server.profiled for server in plan.servers] == profiled
    assert plan.profiled is any(profiled)


def test_the_reference_runs_once_and_unprofiled_beside_both_settings_and_profiles():
    plan = _plan(profile="0,1", ceiling="1", settings="original,default")
    assert [server.key for server in plan.servers] == [
        "ref", "alpha", "alpha+profiled", "alpha@default", "alpha@default+profiled",
        "beta", "beta+profiled", "beta@default", "beta@default+profiled"]
    assert plan.starts == 9


def test_a_plan_of_the_reference_alone_profiles_nothing():
    assert not make_plan(plan_settings("ref", "2", "10", "1s", profile="1"), PROFILE_KNOWN,
                         CPUS).profiled


def test_the_record_states_the_profile_and_the_event_asked_only_when_profiling():
    assert (settings_of(_plan()).profile, settings_of(_plan()).profile_event) == ((False,), None)
    both = settings_of(_plan(profile="0,1", profile_event="wall"))
    assert (both.profile, both.profile_event) == ((False, True), "wall")
    assert both.servers == ("alpha", "alpha+profiled", "beta", "beta+profiled")


@pytest.mark.parametrize("event", PROFILE_EVENTS)
def test_every_profile_event_is_taken(event):
    assert _plan(profile="1", profile_event=event).profile_event == event


def test_the_settings_row_names_every_event_the_plan_takes():
    meaning = dict((flag, text) for flag, _, text in BENCH_SETTINGS)["profile-event"]
    assert all(event in meaning for event in PROFILE_EVENTS)


@pytest.mark.parametrize("options, message", [
    ({"profile": "2"}, r"^PROFILE takes 1 .*, 0 \(none\) or 0,1 .*; got '2'$"),
    ({"profile": "yes"}, "^PROFILE takes 1"),
    ({"profile": ""}, "^PROFILE takes 1"),
    ({"profile": "0,,1"}, "^PROFILE takes 1"),
    ({"profile": "1", "profile_event": "cycles"},
     r"^PROFILE_EVENT takes cpu, itimer, wall, alloc \(cpu: .*\); got 'cycles'$"),
    ({"profile_event": "CPU"}, "^PROFILE_EVENT takes"),
])
def test_bad_profile_settings_stop_with_one_line(options, message):
    with pytest.raises(PlanError, match=message) as raised:
        _plan(**options)
    assert "\n" not in str(raised.value)


def test_make_latency_takes_the_profile_settings():
    plan = make_latency_plan({"servers": "alpha", "ceiling": "0", "profile": "1",
                              "profile-event": "itimer"}, PROFILE_KNOWN, CPUS)
    assert [server.key for server in plan.bench.servers] == ["alpha+profiled"]
    assert plan.bench.profile_event == "itimer"


@pytest.mark.parametrize("profile", ["1", "0,1"])
def test_make_latency_refuses_to_profile_a_server_the_user_started(profile):
    with pytest.raises(PlanError, match=r"^PROFILE does not apply with URL=: .*set PROFILE=0$"):
        make_latency_plan({"url": "http://127.0.0.1:9000/", "profile": profile}, PROFILE_KNOWN, CPUS)


def test_make_latency_at_a_url_without_the_profiler_is_fine():
    assert make_latency_plan({"url": "http://127.0.0.1:9000/", "profile": "0"}, PROFILE_KNOWN,
                             CPUS).url == "http://127.0.0.1:9000/"
