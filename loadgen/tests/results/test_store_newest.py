"""The runs under a results folder, newest first (results/store.py), as newest_calibration
reads them: folders by their UTC stamp, results/latest and damaged files passed over."""

from __future__ import annotations

from httplab.results.calibration import NoiseMetric, newest_calibration
from httplab.results.results_json.write import results_json_text
from httplab.results.store import point_latest, results_newest_first
from httplab.run_layout import RESULTS_JSON

from tests.calibration_sample import HOST, calibration_result

STAMPS = ("2026-11-27T10-00-00Z", "2026-11-28T10-00-00Z")


def _write(root, stamp, text):
    (root / stamp).mkdir()
    (root / stamp / RESULTS_JSON).write_text(text)


def test_runs_come_newest_first_and_what_cannot_be_read_is_passed(tmp_path):
    for number, stamp in enumerate(STAMPS):
        _write(tmp_path, stamp, results_json_text(calibration_result(
            rate_sd=0.01 * (number + 1), created=stamp)))
    _write(tmp_path, "2026-11-29T10-00-00Z", "{ not json")
    (tmp_path / "2026-11-30T10-00-00Z").mkdir()  # a run that wrote nothing yet
    point_latest(tmp_path, tmp_path / STAMPS[0])
    assert [run.created_utc for run in results_newest_first(tmp_path)] == list(reversed(STAMPS))
    found = newest_calibration(results_newest_first(tmp_path), HOST)
    assert found.created_utc == STAMPS[1]
    assert round(found.of(NoiseMetric.REQUESTS_PER_SEC), 6) == 0.02


def test_no_results_folder_has_no_runs(tmp_path):
    assert list(results_newest_first(tmp_path / "absent")) == []
