"""The variant axes in the plan: JDK= beside SETTINGS= and PROFILE=, each a value or a
comma list, every combination measured once per framework, the reference once; a bad value
stops with one line naming what is accepted."""

from __future__ import annotations

import pytest

from httplab.axes import JDK, REPLICA
from httplab.manifest import parse_manifest
from httplab.plan_error import PlanError
from httplab.running.plan import make_plan, settings_of

from tests.support.plans import KNOWN, MANIFEST, plan_settings, reference_manifest


def _plan(servers="all", **options):
    return make_plan(plan_settings(servers, **options), KNOWN, frozenset({0, 1}))


@pytest.mark.parametrize("jdk", ["18", "abc", "17,", "", "25,16"])
def test_a_jdk_the_lab_does_not_offer_stops_with_one_line(jdk):
    with pytest.raises(PlanError) as error:
        _plan(jdk=jdk)
    assert str(error.value) == (f"JDK takes 17, 21 or 25 (the Java release every JVM server "
                                f"runs on), or a comma list of them such as 17,25 (each "
                                f"framework on each); got {jdk!r}")


def test_the_default_jdk_is_25_and_keys_name_only_other_values():
    plan = _plan()
    assert plan.values(JDK) == ("25",) and [s.key for s in plan.servers] == ["alpha", "beta"]
    assert {s.jdk for s in plan.servers} == {"25"}


def test_every_combination_of_the_axes_once_per_framework_in_axis_order():
    plan = _plan(servers="alpha", jdk="17,25", settings="original,default", profile="0,1")
    assert [s.key for s in plan.servers] == [
        "alpha@jdk17", "alpha@jdk17+profiled", "alpha", "alpha+profiled",
        "alpha@default@jdk17", "alpha@default@jdk17+profiled", "alpha@default",
        "alpha@default+profiled"]
    assert settings_of(plan).jdks == ("17", "25")


def test_the_reference_is_measured_once_whatever_the_jdks():
    known = (*KNOWN, reference_manifest())
    plan = make_plan(plan_settings("alpha,ref", jdk="17,25"), known, frozenset({0, 1}))
    assert [s.key for s in plan.servers] == ["ref", "alpha@jdk17", "alpha"]


def test_a_variant_the_framework_cannot_run_stays_in_the_plan_but_costs_no_time():
    newer = parse_manifest("gamma", MANIFEST.replace('jdks = "17,21,25"', 'jdks = "21,25"'))
    plan = make_plan(plan_settings("gamma", jdk="17,25", repeat="3"), (newer,),
                     frozenset({0, 1}))
    assert [(s.key, bool(s.not_applicable)) for s in plan.servers] == [
        ("gamma@jdk17", True), ("gamma", False)]
    assert [s.key for s in plan.applicable] == ["gamma"] and plan.starts == 3


def test_replicas_measure_each_server_twice_as_identical_variants_and_are_recorded():
    plan = _plan(servers="alpha", jdk="17", replica="1,2")
    assert [s.key for s in plan.servers] == ["alpha@jdk17", "alpha@jdk17+replica2"]
    first, second = plan.servers
    assert (first.label, second.label) == ("X (JDK 17)", "X (JDK 17, replica 2)")
    assert first == second.on_axis("REPLICA", "1", None), "nothing else differs"
    assert settings_of(plan).replicas == ("1", "2")


def test_a_bench_has_one_replica_and_records_none():
    plan = _plan(servers="alpha")
    assert plan.values(REPLICA) == ("1",) and settings_of(plan).replicas == ()
