"""collect.py reads an HTTP/2 cell measured by h2load (<stem>.h2load-run.txt and its log of
requests, gzipped as the runner keeps it; real captures in fixtures/h2load/measured) into
the cell's runs, as make report does from raw/."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from httplab.model import CellStatus
from httplab.results.collect import cells_from_outcomes, find_raw_files
from httplab.run_layout import RunFiles, parse_measured_name

from tests.conftest import FIXTURES

MEASURED = FIXTURES / "h2load" / "measured"


def h2load_run(raw: Path, stem: str, capture: str, gzipped: bool = True) -> None:
    """A measured h2load run as the bench leaves it in raw/."""
    files = RunFiles(raw / stem)
    shutil.copy(MEASURED / f"{capture}.h2load-run.txt", files.h2load_run)
    log = (MEASURED / f"{capture}.h2load-requests.tsv").read_bytes()
    if gzipped:
        files.h2load_requests_gzipped.write_bytes(gzip.compress(log))
    else:
        files.h2load_requests.write_bytes(log)


@pytest.mark.parametrize("name, stem", [
    ("netty@h2-t10-c500.h2load-run.txt", "netty@h2-t10-c500"),
    ("netty@h2c-json-t2-c50-r3.h2load-run.txt", "netty@h2c-json-t2-c50-r3"),
    ("netty@h2-t10-c500.h2load-requests.tsv.gz", None),
    ("netty@h2-t10-c500.h2load-requests.tsv", None),
])
def test_h2loads_summary_marks_a_measured_run_and_its_log_does_not(name, stem):
    found = parse_measured_name(name)
    assert (found.written if found else None) == stem


@pytest.mark.parametrize("gzipped", [True, False])
def test_a_cell_of_h2load_runs_is_read_from_raw(tmp_path, gzipped):
    h2load_run(tmp_path, "nginx@h2c-t1-c2-r1", "nginx-h2c-m2", gzipped)
    h2load_run(tmp_path, "nginx@h2c-t1-c2-r2", "nginx-h2c-goaway", gzipped)
    (cell,) = cells_from_outcomes([raw.outcome() for raw in find_raw_files(tmp_path)])
    assert (cell.server, cell.threads, cell.connections, cell.status) == \
        ("nginx@h2c", 1, 2, CellStatus.OK)
    assert [(run.tool, run.protocol, run.streams, run.requests) for run in cell.runs] == \
        [("h2load", "h2c", 2, 60), ("h2load", "h2c", 2, 40)]
    assert cell.rounds == (1, 2)


def test_a_run_that_spoke_another_protocol_fails_its_cell_saying_both(tmp_path):
    h2load_run(tmp_path, "nginx@h2-t1-c1", "nginx-h1tls-asked-h2")
    (cell,) = cells_from_outcomes([raw.outcome() for raw in find_raw_files(tmp_path)])
    assert cell.status == CellStatus.FAILED
    assert cell.reason == "h2load was asked for h2 at https://127.0.0.1:18183/ and spoke http/1.1"
    assert cell.runs[0].requests == 30  # what was measured stays


def test_a_run_that_answered_nothing_fails_as_a_wrk_run_does(tmp_path):
    h2load_run(tmp_path, "nginx@h2c-t1-c1", "nginx-h1-asked-h2c")
    (cell,) = cells_from_outcomes([raw.outcome() for raw in find_raw_files(tmp_path)])
    assert cell.status == CellStatus.FAILED
    assert cell.reason.startswith("no request completed in 1.00 s")


def test_a_run_without_its_log_fails_naming_the_summary(tmp_path):
    files = RunFiles(tmp_path / "nginx@h2c-t1-c2")
    shutil.copy(MEASURED / "nginx-h2c-m2.h2load-run.txt", files.h2load_run)
    (cell,) = cells_from_outcomes([raw.outcome() for raw in find_raw_files(tmp_path)])
    assert cell.reason == f"no h2load log of requests beside {files.h2load_run}"


def test_a_damaged_gzipped_log_fails_naming_it(tmp_path):
    h2load_run(tmp_path, "nginx@h2c-t1-c2", "nginx-h2c-m2")
    files = RunFiles(tmp_path / "nginx@h2c-t1-c2")
    files.h2load_requests_gzipped.write_bytes(gzip.compress(b"x" * 100)[:20])
    (cell,) = cells_from_outcomes([raw.outcome() for raw in find_raw_files(tmp_path)])
    assert cell.status == CellStatus.FAILED and cell.runs == ()
