"""results.json format 9: the database workloads' fields round-trip (the database's usage
nested in the resources, the database as run in the settings, each server's db_pool and
db_driver, a workload's queries), and files of format 8 still read, the new fields absent
(None, no database, no queries)."""

from __future__ import annotations

import json

import pytest

from httplab.model import Workload
from httplab.presentation.export.json_results import JsonExporter
from httplab.results.serialize import (FORMAT_VERSION, READABLE_VERSIONS, result_from_dict,
                                       result_to_dict, workload_from_dict, workload_to_dict)

from tests.database_sample import database_sample_result
from tests.sample_results import workloads_sample_result


def test_the_format_is_10_and_every_earlier_one_still_reads():
    assert FORMAT_VERSION == 10
    assert READABLE_VERSIONS == tuple(range(1, 11))


@pytest.mark.parametrize("make", [database_sample_result, workloads_sample_result])
def test_a_result_round_trips_through_results_json(make):
    result = make()
    assert result_from_dict(json.loads(JsonExporter().render(result))) == result


def test_the_database_fields_survive_the_round_trip():
    result = result_from_dict(json.loads(json.dumps(result_to_dict(database_sample_result()))))
    assert result.settings.database.image == "postgres:15.14-bookworm"
    assert result.settings.workloads[1] == Workload("queries", queries=20)
    assert (result.servers[0].db_pool, result.servers[0].db_driver) == (
        4, "Vert.x reactive PostgreSQL client 4.5.22")
    assert result.cells[1].resources[0].database.cpu_cores == 1.84


@pytest.mark.parametrize("workload", [Workload(), Workload("blocking", 10), Workload("db"),
                                      Workload("queries", queries=20)])
def test_workloads_round_trip(workload):
    assert workload_from_dict(workload_to_dict(workload)) == workload


def test_a_format_8_file_reads_with_the_new_fields_at_their_defaults():
    data = result_to_dict(workloads_sample_result())
    data["format_version"] = 8
    del data["settings"]["database"]
    for server in data["servers"]:
        del server["db_pool"], server["db_driver"]
    for cell in data["cells"]:
        del cell["workload"]["queries"]
        for usage in cell["resources"]:
            del usage["database"]
    result = result_from_dict(data)
    assert result.settings.database is None
    assert all((s.db_pool, s.db_driver) == (None, "") for s in result.servers)
    assert all(c.workload.queries is None and all(u.database is None for u in c.resources)
               for c in result.cells)
    assert result.cells == workloads_sample_result().cells
