"""A cell's pinned virtual threads over its runs (the events summed, the frame with most
of them, each run not read and why), its runs' records read back from raw/ and through
results.json, table by table."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from httplab.model import Cell, CellStatus, PinnedFrame, PinnedRun
from httplab.results.collect import read_pinned
from httplab.results.pinned_record import PinnedRecord, record_from_dict, record_to_dict
from httplab.results.pinning import CellPinning, cell_pinning
from httplab.results.results_json.read import cell_from_dict
from httplab.results.results_json.write import cell_to_dict

from tests.sample_results import sample_result

HIKARI, PG = "com.zaxxer.hikari.pool.HikariPool.getConnection", "org.postgresql.PGStream.receive"
RUN_1 = PinnedRun(5, 50.0, 20.0, (PinnedFrame(PG, 3), PinnedFrame(HIKARI, 2)))
RUN_2 = PinnedRun(4, 12.0, 9.0, (PinnedFrame(HIKARI, 4),))
NONE = PinnedRun(0, 0.0, 0.0, ())
LOST = PinnedRun(failure="JFR did not stop: exit code 1")


def _cell(pinned, rounds=()) -> Cell:
    return Cell("netty@virtual", 5, 500, CellStatus.OK, rounds=rounds, pinned=tuple(pinned))


@pytest.mark.parametrize("pinned, rounds, expected", [
    ((RUN_1, RUN_2), (1, 2), CellPinning(9, 2, 62.0, 20.0, HIKARI, 6, ())),
    ((RUN_1,), (), CellPinning(5, 1, 50.0, 20.0, PG, 3, ())),
    ((NONE, NONE), (1, 2), CellPinning(0, 2, 0.0, None, None, 0, ())),
    ((RUN_2, LOST, None), (1, 2, 3),
     CellPinning(4, 1, 12.0, 9.0, HIKARI, 4, ("round 2: JFR did not stop: exit code 1",))),
    ((LOST,), (), CellPinning(0, 0, 0.0, None, None, 0, ("JFR did not stop: exit code 1",))),
], ids=["two-runs", "one-run", "none-pinned", "one-lost", "all-lost"])
def test_a_cells_pinned_threads_over_its_runs(pinned, rounds, expected):
    assert cell_pinning(_cell(pinned, rounds)) == expected


def test_a_cell_never_recorded_has_none():
    assert cell_pinning(_cell(())) is None and cell_pinning(_cell((None, None))) is None


@pytest.mark.parametrize("record", [
    PinnedRecord(RUN_1, None, 100.0, 111.0), PinnedRecord(LOST, "x.pinned.jfr", 100.0, None)])
def test_a_record_reads_back_as_written(tmp_path, record):
    path = tmp_path / "x.pinned.json"
    path.write_text(json.dumps(record_to_dict(record)))
    assert record_from_dict(json.loads(path.read_text())) == record
    assert read_pinned(path) == record.run


@pytest.mark.parametrize("text, says", [
    ('{"version": 2}', "pinned record version 2, expected 1"),
    ('{"version": 1, "events": "many"}', "events: 'many' is not a count"),
    ('{"version": 1, "events": 1, "top_frames": [{"frame": "x"}]}', "top_frames"),
    ("not json", "Expecting value"),
], ids=["version", "events", "frames", "not-json"])
def test_a_record_that_cannot_be_read_is_a_run_that_says_why(tmp_path, text, says):
    path = tmp_path / "x.pinned.json"
    path.write_text(text)
    run = read_pinned(path)
    assert run.events is None and run.failure.startswith(f"cannot read {path}") \
        and says in run.failure


def test_no_record_is_no_run():
    assert read_pinned(None) is None


def test_results_json_keeps_each_runs_pinned_threads():
    cell = replace(sample_result().cells[0], pinned=(RUN_1, None))
    data = json.loads(json.dumps(cell_to_dict(cell, sample_result())))
    assert data["pinned"][0] == {"events": 5, "total_ms": 50.0, "longest_ms": 20.0,
                                 "top_frames": [{"frame": PG, "events": 3},
                                                {"frame": HIKARI, "events": 2}],
                                 "failure": None}
    assert cell_from_dict(data).pinned == (RUN_1, None)
