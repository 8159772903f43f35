"""SETTINGS=original,default and CEILING: the worker-count expressions, the variants the plan
runs, and one clear line for bad input before any load."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.manifest import ManifestError, discover, parse_manifest
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.running.plan import make_plan
from httplab.plan_error import PlanError
from httplab.worker_counts import WorkerCountError, worker_count

from tests.support.plans import MANIFEST, plan_settings

CPUS = frozenset({0, 1})


@pytest.mark.parametrize("expression, cpus, count", [
    ("2 * cpus", 2, 4), ("max(4, cpus)", 2, 4), ("max(4, cpus)", 8, 8),
    ("8 * max(2, cpus)", 1, 16), ("8 * max(2, cpus)", 4, 32), ("cpus", 3, 3), ("16", 2, 16),
    ("cpus + 1", 2, 3), ("min(cpus, 2)", 8, 2),
])
def test_worker_counts(expression, cpus, count):
    assert worker_count(expression, cpus) == count


@pytest.mark.parametrize("expression", ["2 ** cpus", "__import__('os')", "cpus / 2", "x", "0",
                                        "max()", ""])
def test_anything_else_is_refused(expression):
    with pytest.raises(WorkerCountError):
        worker_count(expression, 2)


def test_every_framework_cites_its_default_and_it_gives_a_count():
    for manifest in discover(servers_dir(DEFAULT_REPO)):
        if not manifest.is_reference:
            assert manifest.default_workers_source, manifest.name
            assert worker_count(manifest.default_workers, 2) >= 1


def test_a_manifest_without_a_default_or_with_a_bad_one_names_the_field():
    without = "\n".join(line for line in MANIFEST.splitlines() if "default_workers" not in line)
    with pytest.raises(ManifestError, match="default_workers: missing"):
        parse_manifest("x", without, "servers/x/server.toml")
    bad = MANIFEST.replace('default_workers = "2 * cpus"', 'default_workers = "2 ** cpus"')
    with pytest.raises(ManifestError, match="servers/x/server.toml: default_workers: "):
        parse_manifest("x", bad, "servers/x/server.toml")


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
