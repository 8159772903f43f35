"""results.json's writer names every field of the model it writes: a field added to a record
of the model is written or listed in LEFT_OUT with the reason, never taken in (or dropped)
silently; and what it writes is plain JSON in a fixed order."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import textwrap
import typing

import pytest

from httplab import model, raw_files
from httplab.results import pinned_record
from httplab.results.results_json import write
from httplab.results.paired_ratio import PairedRatio
from httplab.results.results_json.write import LEFT_OUT
from httplab.results.variants import VariantComparison

from tests.latency_sample import latency_sample_result
from tests.profile_sample import profile_sample_result
from tests.sample_results import sample_result

# Each record of the model that results.json holds, and the function that writes it.
WRITERS = {
    model.BenchResult: write.result_to_dict, model.Settings: write.settings_to_dict,
    model.AutoRepeat: write.auto_repeat_to_dict,
    model.DatabaseRecord: write.database_record_to_dict, model.HostInfo: write.host_to_dict,
    model.ServerRecord: write.server_to_dict, model.EngineRecord: write.engine_to_dict,
    model.Workload: write.workload_to_dict, model.Cell: write.cell_to_dict,
    model.WrkRun: write.run_to_dict, model.Latency: write.latency_to_dict,
    model.SocketErrors: write.socket_errors_to_dict,
    model.ThreadRequestRate: write.thread_rate_to_dict,
    model.FairnessRun: write.fairness_run_to_dict, model.RunProfile: write.profile_to_dict,
    model.HotFrame: write.hot_frame_to_dict, model.CellWarning: write.warning_to_dict,
    model.HostStalls: write.host_stalls_to_dict,
    model.LatencyResult: write.latency_result_to_dict,
    model.RawArchive: write.raw_archive_to_dict,
    model.RateStep: write.rate_step_to_dict, model.SustainedRate: write.sustained_rate_to_dict,
    # raw/<stem>.resources.json's shape, which results.json keeps for each run
    model.ResourceUsage: raw_files.resources_to_dict,
    model.DatabaseUsage: raw_files.database_usage_to_dict,
    # raw/<stem>.pinned.json's figures, which results.json keeps for each run
    model.PinnedRun: pinned_record.pinned_run_to_dict,
    model.PinnedFrame: pinned_record.pinned_frame_to_dict,
}


def _records_in(annotation) -> set[type]:
    """The dataclasses an annotation names: tuple[WrkRun, ...], RunProfile | None..."""
    if dataclasses.is_dataclass(annotation):
        return {annotation}
    if typing.get_origin(annotation):  # tuple[...], X | None
        return {record for argument in typing.get_args(annotation)
                for record in _records_in(argument)}
    return set()


def _written_records(record: type = model.BenchResult, seen: set[type] | None = None) -> set[type]:
    """Every record reachable from BenchResult through the fields results.json writes."""
    seen = set() if seen is None else seen
    seen.add(record)
    hints = typing.get_type_hints(record)
    for field in dataclasses.fields(record):
        if field.name not in LEFT_OUT.get(record, {}):
            for found in _records_in(hints[field.name]) - seen:
                _written_records(found, seen)
    return seen


def _fields_named(writer) -> set[str]:
    """The attributes the writer's own code reads of its first parameter, the record."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(writer)))
    function = tree.body[0]
    record = function.args.args[0].arg
    return {node.attr for node in ast.walk(function) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == record}


def test_every_record_results_json_holds_has_a_writer_here():
    assert _written_records() == set(WRITERS)


@pytest.mark.parametrize("record", list(WRITERS), ids=lambda record: record.__name__)
def test_each_field_is_written_or_left_out_on_purpose(record):
    fields = {field.name for field in dataclasses.fields(record)}
    left_out, written = set(LEFT_OUT.get(record, {})), _fields_named(WRITERS[record])
    assert left_out <= fields - written, "left out but not a field, or written all the same"
    assert fields - written - left_out == set(), (
        f"{record.__name__}: write these in results/results_json/write.py, or list them in "
        f"LEFT_OUT with the reason")


def test_a_new_field_would_be_caught():
    """The check itself: a record with a field its writer does not name fails it."""
    @dataclasses.dataclass(frozen=True)
    class Grown:
        kept: int
        new: int = 0

    def grown_to_dict(grown: Grown) -> dict:
        return {"kept": grown.kept}

    assert {field.name for field in dataclasses.fields(Grown)} - _fields_named(
        grown_to_dict) == {"new"}


@pytest.mark.parametrize("make", [sample_result, latency_sample_result])
def test_the_text_is_plain_json_in_the_writers_order(make):
    result = make()
    text = write.results_json_text(result)
    data = json.loads(text)
    assert list(data) == ["format_version", "created_utc", "settings", "host", "servers",
                          "cells", "lab_commit", "warnings", "engines", "latency",
                          "raw_archive"]
    assert text == json.dumps(write.result_to_dict(result), indent=2, ensure_ascii=False) + "\n"


def test_a_cells_derived_figures_sit_in_their_places():
    cell = write.result_to_dict(sample_result())["cells"][0]
    keys = list(cell)
    assert keys[:7] == ["server", "workload", "threads", "connections", "status", "reason",
                        "requests_per_sec_summary"]
    assert keys[-6:] == ["runs", "resources", "fairness", "profiles", "fairness_summary",
                         "limited_by"]


# The records derived for the file's readers (not read back), and the function that writes
# each: field by field too, so a figure added to one is written or fails here.
DERIVED_WRITERS = {VariantComparison: write.variant_comparison_to_dict,
                   PairedRatio: write.paired_ratio_to_dict}


@pytest.mark.parametrize("record", list(DERIVED_WRITERS), ids=lambda record: record.__name__)
def test_each_derived_records_field_is_written(record):
    fields = {field.name for field in dataclasses.fields(record)}
    assert fields - _fields_named(DERIVED_WRITERS[record]) == set()


def test_the_variants_compared_come_last_and_only_in_a_run_with_variants():
    data = write.result_to_dict(profile_sample_result())
    assert list(data)[-3:] == ["latency", "raw_archive", "variants_compared"]
    first = data["variants_compared"][0]
    assert list(first) == ["framework", "axis", "base", "other", "workload", "threads",
                           "connections", "metric", "ratio", "low", "high", "confidence",
                           "rounds", "rounds_needed", "p_value", "q_value", "among",
                           "log_sd", "unpaired", "lost_to_host"]
    assert (first["other"], first["metric"], first["low"], first["rounds"]) == (
        "netty+profiled", "requests_per_sec", None, 2)
    assert "variants_compared" not in write.result_to_dict(sample_result())
