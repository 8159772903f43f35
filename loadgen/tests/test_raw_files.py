"""The two JSON files the runner writes into raw/ read back as written: a run's resources
(the database's nested, absent in files from before it) and the record of a run's load
generators (their raw files relative to the raw folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from httplab.model import DatabaseUsage, ResourceUsage
from httplab.outcomes import GeneratorOutcome
from httplab.raw_files import (RawFileError, generators_from_dict, generators_to_dict,
                               resources_from_dict, resources_to_dict)


@pytest.mark.parametrize("usage", [
    ResourceUsage(cpu_cores=0.5, database=DatabaseUsage(
        cpu_cores=1.2, cpu_seconds=12.0, memory_peak_bytes=2**27, context_switches=900,
        samples=21, source="cgroup v2")),
    ResourceUsage(cpu_cores=0.5, database=DatabaseUsage(unavailable="no cgroup access")),
    ResourceUsage(cpu_cores=0.5),
])
def test_the_runners_resources_file_round_trips_with_the_database_nested(usage):
    data = json.loads(json.dumps(resources_to_dict(usage)))
    assert resources_from_dict(data) == usage


def test_an_older_resources_file_reads_without_a_database():
    data = resources_to_dict(ResourceUsage(cpu_cores=0.5, samples=3))
    del data["database"]
    assert resources_from_dict(data).database is None


RAW = Path("/runs/r1/raw")
GENERATORS = (
    GeneratorOutcome(1, "ssh://lab@a", 2, 50, RAW / "netty-t4-c100.g1.txt",
                     RAW / "netty-t4-c100.g1.json"),
    GeneratorOutcome(2, "ssh://lab@b", 2, 50, failure="wrk exited with 1: connection refused"),
)


def test_the_generators_record_round_trips_with_names_relative_to_the_raw_folder():
    data = json.loads(json.dumps(generators_to_dict(GENERATORS, RAW)))
    assert data["generators"][0]["text"] == "netty-t4-c100.g1.txt"
    assert generators_from_dict(data, RAW) == GENERATORS


def test_a_generators_record_missing_a_field_is_not_read():
    data = generators_to_dict(GENERATORS, RAW)
    del data["generators"][1]["engine"]
    with pytest.raises(RawFileError, match="engine"):
        generators_from_dict(data, RAW)
