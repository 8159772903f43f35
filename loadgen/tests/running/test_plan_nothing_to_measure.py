"""A plan whose every framework variant is not applicable stops before any work, with one
line giving each variant's reason; a plan with one framework variant that runs, or of the
reference alone, goes on."""

from __future__ import annotations

import pytest

from httplab.manifest import parse_manifest
from httplab.plan_error import PlanError
from httplab.running.plan import make_plan

from tests.support.plans import CPUS, MANIFEST, plan_settings, reference_manifest

# helidon's shape: virtual threads only, JDK 21+; tomcat's: pool only, nio only.
VIRTUAL_21 = parse_manifest("vt", MANIFEST.replace('jdks = "17,21,25"', 'jdks = "21,25"')
                            .replace('executors = "pool,virtual"', 'executors = "virtual"'))
POOL_NIO = parse_manifest("pn", MANIFEST.replace('transports = "epoll,nio,io_uring"',
                                                 'transports = "nio"')
                          .replace('executors = "pool,virtual"', 'executors = "pool"'))
KNOWN = (VIRTUAL_21, POOL_NIO, reference_manifest())


def _plan(servers, **options):
    return make_plan(plan_settings(servers, ceiling="1", **options), KNOWN, CPUS)


@pytest.mark.parametrize("servers, options, reasons", [
    ("vt", {"jdk": "17"}, ["vt@jdk17@virtual: X 1 runs on JDK 21 and 25 only, not 17"]),
    ("pn", {"transport": "io_uring"},
     ["pn@io_uring: X 1 runs on nio only, not io_uring (the test's own)"]),
    ("pn", {"executor": "virtual", "jdk": "17"},
     ["pn@jdk17@virtual: X 1 runs its blocking work on"]),
    ("vt,pn", {"jdk": "17", "executor": "virtual"},
     ["vt@jdk17@virtual: X 1 runs on JDK 21 and 25 only", "pn@jdk17@virtual: X 1 runs its"]),
])
def test_a_plan_whose_every_framework_cell_is_not_applicable_stops_naming_each(
        servers, options, reasons):
    with pytest.raises(PlanError) as error:
        _plan(servers, **options)
    message = str(error.value)
    assert message.startswith("nothing to measure: no framework can run as asked (")
    assert "\n" not in message
    for reason in reasons:
        assert reason in message
    assert "ref:" not in message


@pytest.mark.parametrize("servers, options, runs", [
    ("vt,pn", {"jdk": "17"}, ["ref", "pn@jdk17"]),
    ("pn", {"transport": "nio,io_uring"}, ["ref", "pn@nio"]),
    ("ref", {"jdk": "17"}, ["ref"]),
    ("vt", {}, ["ref", "vt@virtual"]),
])
def test_a_plan_with_one_framework_cell_to_measure_or_of_the_reference_alone_goes_on(
        servers, options, runs):
    assert [server.key for server in _plan(servers, **options).applicable] == runs
