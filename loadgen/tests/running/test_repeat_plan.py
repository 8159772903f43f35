"""REPEAT=auto, PRECISION, MAX_REPEAT and METRIC in the plan: the rule a run carries to its
results, and each bad input stopping with one line before any load."""

from __future__ import annotations

import pytest

from httplab.manifest import parse_manifest
from httplab.model import AutoRepeat
from httplab.plan_error import PlanError
from httplab.running.latency_plan import make_latency_plan
from httplab.running.plan import make_plan, settings_of

from tests.support.plans import CPUS, KNOWN, MANIFEST, plan_settings

# Helidon 4's case: a framework that runs on JDK 21 and 25 only.
NEWER_ONLY = (parse_manifest("alpha", MANIFEST.replace('jdks = "17,21,25"', 'jdks = "21,25"')),)


def _plan(known=KNOWN, servers="alpha", **options):
    return make_plan(plan_settings(servers, "2", "10", "1s", **options), known, CPUS)


def test_auto_runs_up_to_max_repeat_rounds_and_records_its_rule():
    plan = _plan(repeat="auto", jdk="17,25", precision="2.5%", max_repeat="6",
                 metric="cpu_per_request")
    rule = AutoRepeat(0.025, 6, "cpu_per_request")
    assert (plan.repeat, plan.auto_repeat) == (6, rule)
    assert settings_of(plan).auto_repeat == rule


def test_the_defaults_are_five_percent_ten_rounds_and_requests_per_sec():
    assert _plan(repeat="auto", jdk="17,25").auto_repeat == AutoRepeat(0.05, 10,
                                                                       "requests_per_sec")


def test_a_fixed_repeat_carries_no_rule():
    plan = _plan(repeat="3")
    assert (plan.repeat, plan.auto_repeat, settings_of(plan).auto_repeat) == (3, None, None)


@pytest.mark.parametrize("options, message", [
    ({"repeat": "auto"}, "REPEAT=auto .* this run compares none: list two values of an axis"),
    ({"repeat": "often"}, "REPEAT must be a whole number from 1 to 1000, or auto"),
    ({"repeat": "auto", "jdk": "17,25", "precision": "0"}, "PRECISION must be a percentage"),
    ({"repeat": "auto", "jdk": "17,25", "precision": "100"}, "PRECISION must be a percentage"),
    ({"repeat": "auto", "jdk": "17,25", "precision": "-5"}, "PRECISION must be a percentage"),
    ({"repeat": "auto", "jdk": "17,25", "precision": "tight"}, "PRECISION must be a percentage"),
    ({"repeat": "auto", "jdk": "17,25", "max_repeat": "2"}, "MAX_REPEAT must be a whole number "
                                                            "from 3"),
    ({"repeat": "auto", "jdk": "17,25", "max_repeat": "ten"}, "MAX_REPEAT must be"),
    ({"repeat": "auto", "jdk": "17,25", "metric": "p99"}, "METRIC takes requests_per_sec or "
                                                          "cpu_per_request; got 'p99'"),
    ({"repeat": "3", "precision": "2"}, "PRECISION apply to REPEAT=auto only"),
    ({"repeat": "3", "max_repeat": "5", "metric": "cpu_per_request"},
     "MAX_REPEAT and METRIC apply to REPEAT=auto only"),
])
def test_bad_input_stops_with_one_line(options, message):
    with pytest.raises(PlanError, match=message):
        _plan(**options)


def test_two_frameworks_on_one_jdk_are_no_pair():
    with pytest.raises(PlanError, match="compares none"):
        _plan(servers="alpha,beta", repeat="auto")


def test_a_variant_that_cannot_run_leaves_no_pair():
    with pytest.raises(PlanError, match="compares none"):
        _plan(NEWER_ONLY, repeat="auto", jdk="17,25")


def test_two_axes_listed_give_pairs_one_axis_apart():
    plan = _plan(repeat="auto", jdk="17,25", settings="original,default")
    assert plan.auto_repeat is not None and len(plan.servers) == 4


@pytest.mark.parametrize("settings, message", [
    ({"repeat": "auto", "url": "http://127.0.0.1:9000/", "jdk": "17,25"},
     "REPEAT=auto does not apply with URL="),
    ({"repeat": "auto", "servers": "alpha"}, "compares none"),
    ({"repeat": "auto", "jdk": "17,25", "metric": "latency"}, "METRIC takes"),
])
def test_make_latency_refuses_the_same_and_auto_with_url(settings, message):
    with pytest.raises(PlanError, match=message):
        make_latency_plan(settings, KNOWN, CPUS)
