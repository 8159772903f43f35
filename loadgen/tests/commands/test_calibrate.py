"""make calibrate with a fake backend, end to end but for the load: the plan measures the
server twice in every round (the replica rotated as the bench rotates servers), the run is
its own kind, its results.md, results.json and page show the host's noise and say whether
the A/A held 1, make report rebuilds it from raw/, and too few rounds stop it before any
load. No wrk, no JVM: each run copies a captured wrk report."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from httplab.commands.calibrate import calibrate
from httplab.commands.report import report
from httplab.model import RunKind
from httplab.plan_error import PlanError
from httplab.results.store import read_results
from httplab.run_layout import LATEST, RESULTS_JSON, RESULTS_MD, RUN_PAGE
from httplab.running.calibration_plan import make_calibration_plan

from tests.support.fake_backend import FakeOhaBackend
from tests.support.plans import KNOWN, plan_settings

pytestmark = pytest.mark.shared_host  # STAND_IN_PORT is test_calibrate_stand_in.py's too

STAND_IN_PORT = 18082  # only probed as free by the checks: the fake serves on a port of its own
MANIFEST = replace(KNOWN[0], port=STAND_IN_PORT)


def _plan(**options):
    return make_calibration_plan(plan_settings(MANIFEST.name, "2", "10", "1s", repeat="3",
                                               **options), (MANIFEST,), frozenset({0, 1}))


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    root = tmp_path_factory.mktemp("calibrate")
    backend = FakeOhaBackend({})
    code = calibrate(_plan(), backend, root, root)
    run_dir = (root / LATEST).resolve()
    return code, backend, run_dir, read_results(run_dir / RESULTS_JSON)


def test_the_server_runs_twice_in_every_round_the_order_rotated(calibrated):
    code, backend, _, result = calibrated
    assert code == 0
    assert backend.started == ["alpha", "alpha+replica2", "alpha+replica2", "alpha",
                               "alpha", "alpha+replica2"]
    assert result.kind is RunKind.CALIBRATE and result.settings.replicas == ("1", "2")
    assert [cell.server for cell in result.cells] == ["alpha", "alpha+replica2"]
    assert all(cell.rounds == (1, 2, 3) for cell in result.cells)


def test_results_md_and_the_page_show_the_host_noise_and_its_sentence(calibrated):
    _, _, run_dir, _ = calibrated
    markdown, page = (run_dir / RESULTS_MD).read_text(), (run_dir / RUN_PAGE).read_text()
    # Identical captured reports: no spread at all, and the interval is 1 exactly.
    row = "| X | plaintext | 2 | 10 | Requests/sec | 0.0 % | ±0.0 % | ±0.0 % | ±0.0 % | 3 | 3 |"
    assert "### Host noise (make calibrate)" in markdown and row in markdown
    sentence = "Every A/A interval holds 1: the host did not drift within a round."
    assert sentence in markdown and sentence in page
    assert "make calibrate" in page and "Host noise (make calibrate)" in page


def test_results_json_records_the_replicas_and_compares_them(calibrated):
    _, _, run_dir, _ = calibrated
    data = json.loads((run_dir / RESULTS_JSON).read_text())
    assert data["settings"]["replicas"] == ["1", "2"]
    compared = {(one["axis"], one["base"], one["other"], one["metric"])
                for one in data["variants_compared"]}
    assert ("REPLICA", "alpha", "alpha+replica2", "requests_per_sec") in compared
    (pair,) = data["calibration"]
    assert (pair["base"], pair["other"], pair["threads"], pair["connections"]) == (
        "alpha", "alpha+replica2", 2, 10)
    rate = pair["figures"][0]
    assert (rate["metric"], rate["log_sd"], rate["holds_one"], rate["rounds"]) == (
        "requests_per_sec", 0.0, True, 3)
    assert rate["expected_half_width"] == {"3": 0.0, "5": 0.0, "10": 0.0}
    assert rate["rounds_for"] == {"0.05": 3, "0.1": 3}
    assert [one["metric"] for one in pair["figures"]] == [
        "requests_per_sec", "cpu_us_per_request", "latency_p99_us"]


def test_make_report_rebuilds_the_calibration_from_its_raw_files(calibrated, tmp_path):
    _, _, run_dir, _ = calibrated
    out = tmp_path / "rebuilt"
    assert report(run_dir, out, None, tmp_path / "no-servers") == 0
    rebuilt = read_results(out / RESULTS_JSON)
    assert rebuilt.kind is RunKind.CALIBRATE
    assert (out / RESULTS_MD).read_text().count("### Host noise (make calibrate)") == 1


@pytest.mark.parametrize("repeat", ["1", "2"])
def test_fewer_than_three_rounds_stop_before_any_load(repeat):
    with pytest.raises(PlanError, match=f"make calibrate needs REPEAT=3 or more: .*got "
                                        f"REPEAT={repeat}$"):
        make_calibration_plan(plan_settings(MANIFEST.name, repeat=repeat), (MANIFEST,))


def test_repeat_auto_is_refused_before_any_load():
    with pytest.raises(PlanError, match="^make calibrate takes a fixed REPEAT \\(3 or more\\), "
                                        "not REPEAT=auto: "):
        make_calibration_plan(plan_settings(MANIFEST.name, repeat="auto"), (MANIFEST,))
