"""SETTINGS=original,default and CEILING in the plan: the variants it runs, the reference
first, and one clear line for bad input before any load."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.manifest import parse_manifest
from httplab.plan_error import PlanError
from httplab.running.plan import make_plan

from tests.support.plans import CPUS, MANIFEST, plan_settings


KNOWN = (parse_manifest("alpha", MANIFEST.replace('workers = "cpus"', "workers = 16")),
         replace(parse_manifest("ref", MANIFEST), role="reference", display_name="Ref"))


def _servers(settings="original", ceiling="0", servers="all"):
    plan = make_plan(plan_settings(servers, "2", "10", "1s", settings=settings, ceiling=ceiling),
                     KNOWN, CPUS)
    return [(server.key, server.workers, server.label, server.workers_variable)
            for server in plan.servers]


def test_original_only_runs_each_framework_as_its_manifest_says():
    assert _servers() == [("alpha", 16, "X (16 workers)", "")]


def test_default_runs_the_documented_default_for_this_hosts_cpus():
    assert _servers("default") == [("alpha@default", 4, "X (4 workers, default)", "4")]


def test_both_settings_and_the_ceiling_first_run_once():
    assert [key for key, *_ in _servers("original,default", "1")] == [
        "ref", "alpha", "alpha@default"]


def test_a_reference_named_in_servers_runs_first_even_without_ceiling():
    assert [key for key, *_ in _servers(servers="alpha,ref")] == ["ref", "alpha"]


@pytest.mark.parametrize("options, message", [
    ({"settings": "fastest"}, "SETTINGS takes original, default or both"),
    ({"settings": ""}, "SETTINGS takes"),
    ({"ceiling": "yes"}, "CEILING takes 1"),
])
def test_bad_settings_stop_with_one_line(options, message):
    with pytest.raises(PlanError, match=message):
        make_plan(plan_settings("all", "2", "10", "1s", **options), KNOWN, CPUS)
