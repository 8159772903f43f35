"""The worker-count expressions of the manifests (`2 * cpus`, `max(4, cpus)`, ...): their
counts, anything else refused, and every framework's default given and citing its source."""

from __future__ import annotations

import pytest

from httplab.manifest import ManifestError, discover, parse_manifest
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.worker_counts import WorkerCountError, worker_count

from tests.support.plans import MANIFEST


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
