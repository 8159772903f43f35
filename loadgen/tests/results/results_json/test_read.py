"""results.json read back: the current format round-trips, the database workloads' fields
(format 9) and the warnings with their kind, cell, cause and advice (format 11) among them,
and every older format still reads: the committed runs, files kept from older formats
(tests/fixtures/results_json), and format 8 and 10 made from today's, the new fields at their
defaults and each warning's kind recovered from its sentence."""

from __future__ import annotations

import json
import re

import pytest

from httplab.model import CellWarning, WarningKind, Workload
from httplab.paths import DEFAULT_REPO
from httplab.presentation.json.results import JsonExporter
from httplab.results.results_json.read import result_from_dict, workload_from_dict
from httplab.results.results_json.version import (FORMAT_VERSION, READABLE_VERSIONS,
                                                  ResultsFormatError)
from httplab.results.results_json.write import result_to_dict, workload_to_dict
from httplab.results.warning_groups import cell_warnings
from httplab.run_layout import RESULTS_JSON

from tests.conftest import FIXTURES
from tests.database_sample import database_sample_result
from tests.profile_sample import profile_sample_result
from tests.sample_results import sample_result, workloads_sample_result
from tests.support.results_formats import as_format

OLDER_FORMATS = sorted((FIXTURES / "results_json").glob("format-*.json"))
# How docs/ states the version: "`results.json` (format 12)", "`FORMAT_VERSION`, now 12".
FORMAT_IN_DOCS = re.compile(r"`results\.json` \(format (\d+)\)|`FORMAT_VERSION`, now (\d+)")
COMMITTED_RUNS = sorted((DEFAULT_REPO / "results").glob(f"20*/{RESULTS_JSON}"))


def test_the_format_is_19_and_every_earlier_one_still_reads():
    assert FORMAT_VERSION == 19
    assert READABLE_VERSIONS == tuple(range(1, 20))


@pytest.mark.parametrize("make", [database_sample_result, workloads_sample_result,
                                  sample_result, profile_sample_result])
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
    data = as_format(result_to_dict(workloads_sample_result()), 8)
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


def test_each_warning_is_kept_with_its_kind_cell_cause_and_advice():
    data = result_to_dict(database_sample_result())
    assert data["warnings"][1] == {
        "kind": "database", "text": data["warnings"][1]["text"],
        "cell": "Undertow (200 workers) db t4 c256",
        "cause": data["warnings"][1]["cause"], "detail": "",
        "advice": data["warnings"][1]["advice"]}
    assert data["warnings"][1]["cause"].startswith("The database used at least 90%")


@pytest.mark.parametrize("make", [database_sample_result, workloads_sample_result,
                                  profile_sample_result])
def test_a_format_10_files_sentences_read_as_the_warnings_the_lab_makes(make):
    result = make()
    read = result_from_dict(as_format(result_to_dict(result), 10))
    assert read.warnings == result.warnings == cell_warnings(result)


def test_a_sentence_the_lab_no_longer_makes_reads_as_other_about_the_cell_it_names():
    data = as_format(result_to_dict(workloads_sample_result()), 10)
    data["warnings"] += ["Netty t4 c256: an older run's warning", "a warning of the whole run"]
    *_, about_a_cell, about_the_run = result_from_dict(data).warnings
    assert about_a_cell == CellWarning(WarningKind.OTHER, "Netty t4 c256: an older run's warning",
                                       "Netty t4 c256")
    assert about_the_run == CellWarning(WarningKind.OTHER, "a warning of the whole run")


def test_a_warning_of_an_unknown_kind_is_not_read():
    data = result_to_dict(workloads_sample_result())
    data["warnings"][0]["kind"] = "sideways"
    with pytest.raises(ResultsFormatError, match="sideways"):
        result_from_dict(data)


@pytest.mark.parametrize("path", COMMITTED_RUNS + OLDER_FORMATS,
                         ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_committed_and_older_file_reads_with_structured_warnings(path):
    data = json.loads(path.read_text())
    result = result_from_dict(data)
    assert result.format_version == data["format_version"]
    stored = data.get("warnings", [])  # sentences before format 11, records since
    assert [warning.text for warning in result.warnings] == [
        warning if isinstance(warning, str) else warning["text"] for warning in stored]
    made = cell_warnings(result)
    assert all(warning in made for warning in result.warnings), "a kind was not recovered"


def test_the_committed_runs_and_older_files_cover_every_kind_of_run():
    versions = {json.loads(path.read_text())["format_version"] for path in OLDER_FORMATS}
    assert {1, 2, 7, 10, 18} <= versions and len(COMMITTED_RUNS) >= 9


def test_the_docs_state_the_format_version_the_code_writes():
    pages = sorted((DEFAULT_REPO / "docs").glob("*.md"))
    stated = {int(quoted or named) for page in pages
              for quoted, named in FORMAT_IN_DOCS.findall(page.read_text())}
    assert stated == {FORMAT_VERSION}


def test_the_raw_archive_round_trips_and_a_format_18_file_has_none():
    from dataclasses import replace

    from httplab.model import RawArchive

    archived = replace(sample_result(), raw_archive=RawArchive("raw.tar.xz", "ab" * 32))
    assert result_from_dict(json.loads(JsonExporter().render(archived))) == archived
    older = json.loads((FIXTURES / "results_json" / "format-18.json").read_text())
    assert "raw_archive" not in older
    assert result_from_dict(older).raw_archive is None
