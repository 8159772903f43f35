"""TRANSPORT in the plan: nio, epoll, io_uring or a list, each framework on each; left empty,
each framework on its own (the first of its transports), its key unchanged; an engine a
framework has not, a not-applicable variant with its reason, never an error; a bad value or
a repeated one stops with one line before any load."""

from __future__ import annotations

import pytest

from httplab.manifest import parse_manifest
from httplab.plan_error import PlanError
from httplab.running.backends.local import server_environment
from httplab.running.plan import make_plan, settings_of

from tests.support.plans import MANIFEST, plan_settings, reference_manifest

ALL_THREE = parse_manifest("alpha", MANIFEST)  # transports = "epoll,nio,io_uring"
NIO_ONLY = parse_manifest("beta", MANIFEST.replace('transports = "epoll,nio,io_uring"',
                                                   'transports = "nio"'))
KNOWN = (ALL_THREE, NIO_ONLY, reference_manifest())


def _plan(servers="alpha,beta", **options):
    return make_plan(plan_settings(servers, **options), KNOWN, frozenset({0, 1}))


@pytest.mark.parametrize("transport", ["kqueue", "uring", "epoll,epoll", "epoll,", "https"])
def test_a_bad_or_repeated_transport_stops_with_one_line_naming_the_values(transport):
    with pytest.raises(PlanError) as error:
        _plan(transport=transport)
    message = str(error.value)
    assert message.startswith("TRANSPORT takes nio, epoll or io_uring (the I/O engine under "
                              "the framework)")
    assert message.endswith(f"; got {transport!r}") and "\n" not in message


def test_left_empty_each_framework_runs_on_its_own_engine_under_its_old_key():
    plan = _plan()
    assert [(s.key, s.transport, s.transport_variable) for s in plan.servers] == [
        ("alpha", "epoll", ""), ("beta", "nio", "")]
    assert settings_of(plan).transports == ()


def test_a_list_measures_each_framework_on_each_engine_or_says_why_not():
    plan = _plan(transport="epoll,io_uring")
    said = {s.key: s.not_applicable for s in plan.servers}
    assert list(said) == ["alpha@epoll", "alpha@io_uring", "beta@epoll", "beta@io_uring"]
    assert said["alpha@epoll"] == said["alpha@io_uring"] == ""
    assert said["beta@io_uring"] == "X 1 runs on nio only, not io_uring (the test's own)"
    assert [s.key for s in plan.applicable] == ["alpha@epoll", "alpha@io_uring"]
    assert settings_of(plan).transports == ("epoll", "io_uring")


def test_the_reference_runs_once_on_its_own_engine_whatever_the_transports():
    plan = _plan("alpha,ref", transport="nio,io_uring")
    assert [(s.key, s.transport) for s in plan.servers] == [
        ("ref", "epoll"), ("alpha@nio", "nio"), ("alpha@io_uring", "io_uring")]
    assert plan.servers[0].transport_variable == ""


def test_the_server_is_given_the_engine_asked_and_nothing_when_none_was():
    uring = ALL_THREE.on_axis("TRANSPORT", "io_uring", 2)
    assert server_environment(uring, 8080)["TRANSPORT"] == "io_uring"
    assert "TRANSPORT" not in server_environment(ALL_THREE, 8080)
    assert uring.label.endswith("(io_uring)")
