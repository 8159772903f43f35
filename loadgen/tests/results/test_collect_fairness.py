"""collect.py reads h2load's runs beside a cell's measured runs (<stem>.h2load.txt and
<stem>.sockets.txt, real captures in fixtures/h2load) into Cell.fairness."""

import shutil

import pytest

from httplab.model import CellStatus
from httplab.outcomes import CellOutcome
from httplab.results.collect import cell_from_outcomes, find_raw_files
from httplab.results.fairness import cell_fairness
from httplab.run_layout import parse_measured_name

from tests.conftest import FIXTURES

WRK = FIXTURES / "wrk"
H2LOAD = FIXTURES / "h2load"


def measured_run(raw, stem: str, capture: str | None, sockets: bool = True) -> CellOutcome:
    """A measured wrk run (the real nginx capture) as the bench leaves it in raw, with
    h2load's capture `capture` (fixtures/h2load/<capture>-c50.*) after it, when given."""
    shutil.copy(WRK / "nginx-hello.txt", raw / f"{stem}.txt")
    shutil.copy(WRK / "nginx-hello.json", raw / f"{stem}.json")
    h2load = sockets_path = None
    if capture is not None:
        h2load = shutil.copy(H2LOAD / f"{capture}-c50.h2load.txt", raw / f"{stem}.h2load.txt")
    if capture is not None and sockets:
        sockets_path = shutil.copy(H2LOAD / f"{capture}-c50.sockets.txt", raw / f"{stem}.sockets.txt")
    repeat = int(stem.rsplit("-r", 1)[1]) if "-r" in stem else 1
    return CellOutcome("nginx", 2, 50, raw / f"{stem}.txt", raw / f"{stem}.json", repeat=repeat,
                       h2load_path=h2load, sockets_path=sockets_path)


@pytest.mark.parametrize("name", ["netty-t10-c500.h2load.txt", "netty-t10-c500.sockets.txt",
                                  "netty-t10-c500-r2.h2load.txt", "netty-t10-c500-r2.sockets.txt"])
def test_h2loads_files_are_never_taken_for_wrk_reports(name):
    assert parse_measured_name(name) is None


def test_a_raw_folder_yields_each_measured_run_once_with_the_h2load_files_beside_it(tmp_path):
    measured_run(tmp_path, "nginx-t2-c50-r1", "nginx")
    measured_run(tmp_path, "nginx-t2-c50-r2", "nginx", sockets=False)
    measured_run(tmp_path, "nginx-t2-c50-r3", None)
    outcomes = [found.outcome() for found in find_raw_files(tmp_path)]
    assert [(o.repeat, o.h2load_path, o.sockets_path) for o in outcomes] == [
        (1, tmp_path / "nginx-t2-c50-r1.h2load.txt", tmp_path / "nginx-t2-c50-r1.sockets.txt"),
        (2, tmp_path / "nginx-t2-c50-r2.h2load.txt", None),
        (3, None, None)]


def test_a_cells_fairness_runs_follow_its_rounds_and_keep_starved_connections_as_zero(tmp_path):
    outcomes = [measured_run(tmp_path, "nginx-t2-c50-r2", "stalled"),
                measured_run(tmp_path, "nginx-t2-c50-r1", "nginx")]
    cell = cell_from_outcomes(outcomes)
    assert (cell.status, cell.reason, cell.rounds) == (CellStatus.OK, None, (1, 2))
    nginx, stalled = cell.fairness
    assert (nginx.succeeded, len(nginx.connection_bytes)) == (261523, 50)
    assert (stalled.succeeded, stalled.failed) == (13500, 1450)
    assert stalled.connection_bytes.count(0) > 0
    assert cell_fairness(cell).spread == pytest.approx(1.584, abs=1e-3)  # only nginx's has figures


def test_without_socket_readings_the_run_keeps_h2loads_own_summary(tmp_path):
    cell = cell_from_outcomes([measured_run(tmp_path, "nginx-t2-c50", "nginx", sockets=False)])
    (run,) = cell.fairness
    assert (run.connection_bytes, run.client_rps_min, run.client_rps_max) == ((), 1376.24, 2108.54)
    assert cell_fairness(cell).spread == pytest.approx(2108.54 / 1376.24)


@pytest.mark.parametrize(("stems", "note_on", "note"), [
    (["nginx-t2-c50"], 0, "fairness unknown: {raw}/nginx-t2-c50.h2load.txt: no h2load summary"),
    (["nginx-t2-c50-r1", "nginx-t2-c50-r2"], 1,
     "fairness unknown (h2load after round 2): {raw}/nginx-t2-c50-r2.h2load.txt: no h2load summary"),
], ids=["one round", "the second of two"])
def test_unreadable_h2load_output_is_a_note_and_the_wrk_figures_stand(tmp_path, stems, note_on, note):
    outcomes = [measured_run(tmp_path, stem, "hung" if index == note_on else "nginx")
                for index, stem in enumerate(stems)]
    cell = cell_from_outcomes(outcomes)
    assert (cell.status, cell.reason, len(cell.runs)) == (CellStatus.OK, None, len(stems))
    assert len(cell.fairness) == len(stems) - 1
    assert cell.runs[note_on].notes[0].startswith(note.format(raw=tmp_path))
    assert [run.notes for index, run in enumerate(cell.runs) if index != note_on] == [()] * (len(stems) - 1)


def test_a_failed_wrk_run_keeps_the_h2load_problem_in_its_reason(tmp_path):
    outcome = measured_run(tmp_path, "nginx-t2-c50", "hung")
    (tmp_path / "nginx-t2-c50.txt").unlink()
    (tmp_path / "nginx-t2-c50.json").unlink()
    cell = cell_from_outcomes([outcome])
    assert cell.status is CellStatus.FAILED and cell.runs == () and cell.fairness == ()
    assert cell.reason.startswith("no wrk output at ")
    assert f"; fairness unknown: {tmp_path}/nginx-t2-c50.h2load.txt: no h2load summary" in cell.reason
