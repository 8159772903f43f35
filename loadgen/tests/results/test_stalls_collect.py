"""collect.py and latency_steps.py read each measured run's and step's host stalls from the
stall meter's raw/<stem>.stalls.json; a run without one has none, one that cannot be read
says so; results.json keeps them, each CPU's among them, and reads them back (an older file,
without each CPU's, reads as it did); a step's verdict reads the worst CPU."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from httplab.model import ResourceUsage, StepVerdict
from httplab.presentation.json.results import JsonExporter
from httplab.raw_files import resources_to_dict
from httplab.results.collect import cells_from_outcomes, find_raw_files, read_stalls
from httplab.results.latency_steps import StepRules, find_step_outcomes, read_step
from httplab.results.results_json.read import result_from_dict

from tests.conftest import FIXTURES
from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result
from tests.stalls_sample import CLEAN, STALLED, STALLED_HOST, meter_json, per_cpu_meter_json


@pytest.fixture
def raw(tmp_path) -> Path:
    (tmp_path / "raw").mkdir()
    return tmp_path / "raw"


def measured_run(raw: Path, stem: str, lateness: list[int] | None) -> None:
    """wrk's report (the real nginx capture) and, when the meter ran, its JSON."""
    shutil.copy(FIXTURES / "wrk" / "nginx-hello.txt", raw / f"{stem}.txt")
    (raw / f"{stem}.resources.json").write_text(json.dumps(resources_to_dict(
        ResourceUsage(cpu_cores=0.65, cpu_seconds=2.6, samples=4, source="/proc"))))
    if lateness is not None:
        (raw / f"{stem}.stalls.json").write_text(json.dumps(meter_json(lateness)))


def test_each_run_of_a_cell_gets_the_stalls_of_its_own_file(raw):
    measured_run(raw, "netty-t2-c20-r1", STALLED)
    measured_run(raw, "netty-t2-c20-r2", CLEAN)
    (cell,) = cells_from_outcomes([found.outcome() for found in find_raw_files(raw)])
    first, second = cell.host_stalls
    assert first.max_us == 38_000 and first.stalled_share == pytest.approx(0.1254)
    assert second.max_us == 200 and second.stalled_s == 0


def test_the_engines_records_pool_with_the_hosts_in_the_runs_figures(raw):
    measured_run(raw, "netty-t2-c20", CLEAN)
    for index, lateness in ((2, STALLED), (1, CLEAN)):
        (raw / f"netty-t2-c20.stalls.{index}.json").write_text(json.dumps(
            {**meter_json(lateness), "place": f"load generator {index}"}))
    (found,) = find_raw_files(raw)
    assert [path.name for path in found.outcome().engine_stalls_paths] == [
        "netty-t2-c20.stalls.1.json", "netty-t2-c20.stalls.2.json"]
    (cell,) = cells_from_outcomes([found.outcome()])
    (stalls,) = cell.host_stalls
    assert stalls.place == "host; load generator 1; load generator 2"
    assert stalls.samples == 6000 and stalls.max_us == 38_000


def test_an_engines_record_alone_is_the_runs_figures(raw):
    stalls_file = raw / "netty-t2-c20.stalls.1.json"
    stalls_file.write_text(json.dumps({**meter_json(STALLED), "place": "load generator 1"}))
    stalls = read_stalls(None, (stalls_file,))
    assert stalls.place == "load generator 1" and stalls.max_us == 38_000


def test_runs_made_before_the_meter_have_none(raw):
    measured_run(raw, "netty-t2-c20", None)
    (cell,) = cells_from_outcomes([found.outcome() for found in find_raw_files(raw)])
    assert cell.host_stalls == () and read_stalls(None) is None


def test_a_file_that_cannot_be_read_says_so(raw):
    (raw / "x.stalls.json").write_text("{not json")
    assert "cannot read x.stalls.json" in read_stalls(raw / "x.stalls.json").unavailable
    (raw / "x.stalls.1.json").write_text(json.dumps(meter_json(CLEAN)))
    both = read_stalls(raw / "x.stalls.json", (raw / "x.stalls.1.json",)).unavailable
    assert "cannot read x.stalls.json, x.stalls.1.json" in both


def test_a_latency_step_reads_its_stalls(raw):
    stem = "netty-q5000"
    shutil.copy(FIXTURES / "oha" / "netty-5000.json", raw / f"{stem}.oha.json")
    (raw / f"{stem}.stalls.json").write_text(json.dumps(meter_json(STALLED)))
    (outcome,) = find_step_outcomes(raw, 5000.0, "5000")
    step = read_step(outcome, StepRules(5000.0, 2.0, 2.0, 2.0))
    assert step.host_stalls.max_us == 38_000 and step.host_stalls.samples == len(STALLED)


def test_host_stalls_round_trip_through_results_json():
    bench = sample_result()
    cell = bench.cells[0]
    bench = replace(bench, cells=(replace(cell, host_stalls=(STALLED_HOST,) + (None,) * (
        len(cell.runs) - 1)), *bench.cells[1:]))
    latency = latency_sample_result()
    steps = latency.latency.steps
    latency = replace(latency, latency=replace(latency.latency, steps=(
        replace(steps[0], host_stalls=STALLED_HOST), *steps[1:])))
    for result in (bench, latency):
        written = JsonExporter().render(result)
        assert result_from_dict(json.loads(written)) == result
    assert '"stalled_share": 0.1254' in JsonExporter().render(bench)


PER_CPU_HOST = replace(STALLED_HOST, cpus=(
    replace(STALLED_HOST, cpu=0, role="server", max_us=300, stalled_s=0.0, steal_s=0.0),
    replace(STALLED_HOST, cpu=1, role="load tool", steal_s=0.02)), steal_s=0.02)


def test_each_cpus_stalls_round_trip_through_results_json():
    result = latency_sample_result()
    steps = result.latency.steps
    result = replace(result, latency=replace(result.latency, steps=(
        replace(steps[0], host_stalls=PER_CPU_HOST), *steps[1:])))
    written = json.loads(JsonExporter().render(result))
    cpus = written["latency"]["steps"][0]["host_stalls"]["cpus"]
    assert [(cpu["cpu"], cpu["role"], cpu["steal_s"], cpu["cpus"]) for cpu in cpus] == [
        (0, "server", 0.0, []), (1, "load tool", 0.02, [])]
    assert result_from_dict(written) == result


def test_results_written_before_meters_per_cpu_read_with_none():
    result = latency_sample_result()
    steps = result.latency.steps
    result = replace(result, latency=replace(result.latency, steps=(
        replace(steps[0], host_stalls=STALLED_HOST), *steps[1:])))
    written = json.loads(JsonExporter().render(result))
    for field in ("cpus", "cpu", "role", "steal_s"):
        del written["latency"]["steps"][0]["host_stalls"][field]
    assert result_from_dict(written).latency.steps[0].host_stalls == STALLED_HOST


def test_a_latency_step_reads_each_cpus_stalls_and_the_worst_decides(raw):
    stem = "netty-q5000"
    shutil.copy(FIXTURES / "oha" / "netty-5000.json", raw / f"{stem}.oha.json")
    (raw / f"{stem}.stalls.json").write_text(json.dumps(per_cpu_meter_json(
        {0: CLEAN, 1: STALLED}, {0: "server", 1: "load tool"})))
    (outcome,) = find_step_outcomes(raw, 5000.0, "5000")
    step = read_step(outcome, StepRules(5000.0, 2.0, 2.0, 2.0))
    assert [record.cpu for record in step.host_stalls.cpus] == [0, 1]
    assert step.verdict is StepVerdict.HOST
    assert "the host stalled up to 38 ms on CPU 1 (load tool) (12.5% of the step)" in step.reason
