"""EXECUTOR in the plan: pool, virtual or both, each framework under each; left empty, each
framework its own way (the first of its executors); an executor a framework has not, or
virtual threads on JDK 17, a not-applicable variant with its reason, never an error; a bad
value or a repeated one stops with one line before any load."""

from __future__ import annotations

import pytest

from httplab.manifest import parse_manifest
from httplab.plan_error import PlanError
from httplab.running.plan import make_plan, settings_of

from tests.support.plans import MANIFEST, plan_settings, reference_manifest

POOLED = parse_manifest("alpha", MANIFEST)
POOL_ONLY = parse_manifest("beta", MANIFEST.replace('executors = "pool,virtual"',
                                                    'executors = "pool"'))
VIRTUAL_ONLY = parse_manifest("gamma", MANIFEST.replace('executors = "pool,virtual"',
                                                        'executors = "virtual"'))
KNOWN = (POOLED, POOL_ONLY, VIRTUAL_ONLY, reference_manifest())


def _plan(servers="alpha,beta,gamma", **options):
    return make_plan(plan_settings(servers, **options), KNOWN, frozenset({0, 1}))


@pytest.mark.parametrize("executor", ["green", "pool,pool", "pool,", "virtual,green"])
def test_a_bad_or_repeated_executor_stops_with_one_line(executor):
    with pytest.raises(PlanError) as error:
        _plan(executor=executor)
    assert str(error.value).startswith("EXECUTOR takes pool (the framework's pool for "
                                       "blocking work), virtual")
    assert str(error.value).endswith(f"; got {executor!r}") and "\n" not in str(error.value)


def test_left_empty_each_framework_runs_its_own_way_and_its_key_says_so():
    plan = _plan()
    assert [(s.key, s.executor, s.not_applicable) for s in plan.servers] == [
        ("alpha", "pool", ""), ("beta", "pool", ""), ("gamma@virtual", "virtual", "")]
    assert settings_of(plan).executors == ()


def test_both_executors_measure_each_framework_both_ways_or_say_why_not():
    plan = _plan(executor="pool,virtual")
    said = {s.key: s.not_applicable for s in plan.servers}
    assert list(said) == ["alpha", "alpha@virtual", "beta", "beta@virtual", "gamma",
                          "gamma@virtual"]
    assert said["alpha"] == said["alpha@virtual"] == said["gamma@virtual"] == ""
    assert said["beta@virtual"] == ("X 1 runs its blocking work on a pool only, not virtual "
                                    "threads (the test's own)")
    assert said["gamma"] == ("X 1 runs its blocking work on virtual threads only, not a pool "
                             "(the test's own)")
    assert [s.key for s in plan.applicable] == ["alpha", "alpha@virtual", "beta",
                                                "gamma@virtual"]
    assert settings_of(plan).executors == ("pool", "virtual")


def test_virtual_threads_on_jdk_17_are_not_applicable_and_on_21_they_run():
    plan = _plan("alpha", executor="virtual", jdk="17,21")
    assert [(s.key, s.not_applicable) for s in plan.servers] == [
        ("alpha@jdk17@virtual", "virtual threads need Java 21 (JEP 444); this variant runs "
                                "on JDK 17"),
        ("alpha@jdk21@virtual", "")]


def test_the_reference_runs_once_whatever_the_executors_and_is_given_none():
    plan = _plan("alpha,ref", executor="pool,virtual")
    reference = plan.servers[0]
    assert [s.key for s in plan.servers] == ["ref", "alpha", "alpha@virtual"]
    assert reference.executor_variable == "" and reference.blocking_thread == ""


def test_what_the_server_is_given_and_must_prove():
    virtual = POOLED.on_axis("EXECUTOR", "virtual", 2)
    assert (POOLED.executor_variable, POOLED.blocking_thread, POOLED.runs_pool) == (
        "pool", "platform", True)
    assert (virtual.executor_variable, virtual.blocking_thread, virtual.runs_pool) == (
        "virtual", "virtual", False)
    assert virtual.blocking_pool_size(2) is None  # no pool bounds it: a thread per request
    assert virtual.live_thread_prefix == "ForkJoinPool-1-"
    assert POOLED.live_thread_prefix == POOLED.blocking_thread_prefix
    assert virtual.label.endswith("virtual threads)")
