"""collect.py and latency_steps.py read each measured run's profile (PROFILE=1) from a run
folder: the profiler's record (<stem>.profile.json) and the collapsed stacks it names."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from httplab.model import ResourceUsage, ServerRecord, StepPurpose
from httplab.results.collect import cells_from_outcomes, find_raw_files, read_profile
from httplab.results.latency_steps import StepRules, find_step_outcomes, read_step
from httplab.results.profile_layers import FRAMEWORK, KERNEL
from httplab.results.profile_record import ProfilerRecord, record_to_dict
from httplab.raw_files import resources_to_dict
from tests.conftest import FIXTURES

PROFILES = FIXTURES / "profiles"
NETTY = ServerRecord("netty+profiled", "Netty (profiled)", "Netty", "4.2", "cpus", "epoll",
                     profiled=True)
WEBFLUX = ServerRecord("webflux+profiled", "WebFlux (profiled)", "Spring WebFlux", "3.5",
                       "cpus", "epoll", profiled=True,
                       framework_packages=("org.springframework", "reactor"))


def profiled_run(raw: Path, stem: str, capture: str, cpu_seconds: float = 2.58,
                 record: ProfilerRecord | None = None) -> None:
    """A measured run as make bench PROFILE=1 leaves it: wrk's report (the real nginx
    capture), the server's resources, the profiler's record and its collapsed stacks."""
    shutil.copy(FIXTURES / "wrk" / "nginx-hello.txt", raw / f"{stem}.txt")
    (raw / f"{stem}.resources.json").write_text(json.dumps(resources_to_dict(
        ResourceUsage(cpu_cores=0.65, cpu_seconds=cpu_seconds, samples=4, source="/proc"))))
    shutil.copy(PROFILES / capture, raw / f"{stem}.collapsed.txt")
    (raw / f"{stem}.flame.html").write_text("<html></html>")
    record = record or ProfilerRecord("itimer", 5_000_000, f"{stem}.collapsed.txt",
                                      f"{stem}.flame.html", started_s=1.0, stopped_s=5.0)
    (raw / f"{stem}.profile.json").write_text(json.dumps(record_to_dict(record)))


@pytest.fixture
def raw(tmp_path) -> Path:
    (tmp_path / "raw").mkdir()
    return tmp_path / "raw"


def test_a_run_folder_gives_each_run_its_profile_beside_its_figures(raw):
    profiled_run(raw, "netty+profiled-t2-c20-r1", "netty-itimer-local.collapsed.txt")
    profiled_run(raw, "netty+profiled-t2-c20-r2", "netty-itimer-local.collapsed.txt", 5.0)
    (cell,) = cells_from_outcomes([found.outcome() for found in find_raw_files(raw)], (NETTY,))
    assert len(cell.profiles) == len(cell.runs) == 2
    first, second = cell.profiles
    assert (first.event, first.interval, first.samples) == ("itimer", 5_000_000, 516)
    assert dict(first.layers)[KERNEL] == 406 and first.measured_cpu_seconds == 2.58
    assert first.mismatch is None and "48% less" in second.mismatch  # 2.58 s of 5.0 s
    assert first.collapsed_file == "raw/netty+profiled-t2-c20-r1.collapsed.txt"
    assert first.flame_graph_file == "raw/netty+profiled-t2-c20-r1.flame.html"


def test_the_framework_layer_comes_from_the_servers_record(raw):
    profiled_run(raw, "webflux+profiled-t2-c20", "webflux-cpu-local.collapsed.txt")
    outcomes = [found.outcome() for found in find_raw_files(raw)]
    (told,) = cells_from_outcomes(outcomes, (WEBFLUX,))
    (untold,) = cells_from_outcomes(outcomes)
    assert dict(told.profiles[0].layers)[FRAMEWORK] == 7
    assert dict(untold.profiles[0].layers)[FRAMEWORK] == 0


def test_a_run_without_a_record_has_no_profile_and_a_cell_without_any_none_at_all(raw):
    profiled_run(raw, "netty+profiled-t2-c20-r1", "netty-itimer-local.collapsed.txt")
    shutil.copy(FIXTURES / "wrk" / "nginx-hello.txt", raw / "netty+profiled-t2-c20-r2.txt")
    shutil.copy(FIXTURES / "wrk" / "nginx-hello.txt", raw / "nginx-t2-c20.txt")
    profiled, reference = cells_from_outcomes([found.outcome() for found in find_raw_files(raw)])
    assert profiled.profiles[0].samples == 516 and profiled.profiles[1] is None
    assert reference.profiles == ()


@pytest.mark.parametrize("name, text, failure", [
    ("profile.json", "{not json", "cannot read "),
    ("profile.json", '{"version": 99, "event": "cpu"}', "profile record version 99"),
    ("collapsed.txt", None, "the profiler left no collapsed stacks ("),
    ("collapsed.txt", "a;b\n", "netty-t2-c20.collapsed.txt:1: expected"),
])
def test_a_record_or_stacks_that_cannot_be_read_are_a_failure_not_a_crash(raw, name, text,
                                                                          failure):
    profiled_run(raw, "netty-t2-c20", "netty-itimer-local.collapsed.txt")
    damaged = raw / f"netty-t2-c20.{name}"
    if text is None:
        damaged.unlink()
    else:
        damaged.write_text(text)
    (cell,) = cells_from_outcomes([found.outcome() for found in find_raw_files(raw)])
    assert len(cell.runs) == 1 and cell.reason is None
    assert failure in cell.profiles[0].failure


def test_a_record_of_a_profiler_that_failed_keeps_its_words(raw):
    failed = ProfilerRecord("cpu", None, failure="the profiler did not stop: return code 200")
    profiled_run(raw, "netty-t2-c20", "netty-itimer-local.collapsed.txt", record=failed)
    profile = read_profile(raw / "netty-t2-c20.profile.json", (), 1.0)
    assert profile.failure == "the profiler did not stop: return code 200"
    assert profile.collapsed_file is None and profile.flame_graph_file is None


def test_no_record_no_profile(raw):
    assert read_profile(None, (), 1.0) is None
    assert read_profile(raw / "netty-t2-c20.profile.json", (), 1.0) is None


def test_a_latency_step_reads_its_profile(raw):
    shutil.copy(FIXTURES / "oha" / "netty-5000.json", raw / "webflux+profiled-q5000.oha.json")
    stem = "webflux+profiled-q5000"
    profiled_run(raw, stem, "webflux-cpu-local.collapsed.txt", 0.06)
    (raw / f"{stem}.txt").unlink()
    (outcome,) = find_step_outcomes(raw, 5000.0, "5000")
    assert outcome.profile_path == raw / f"{stem}.profile.json"
    rules = StepRules(5000.0, 2.0, 2.0, 2.0, (("webflux+profiled", WEBFLUX.framework_packages),))
    step = read_step(outcome, rules)
    assert step.purpose is StepPurpose.LIST
    assert step.profile.samples == 12 and dict(step.profile.layers)[FRAMEWORK] == 7
    assert step.profile.collapsed_file == f"raw/{stem}.collapsed.txt"


def test_make_report_rebuilds_the_profiles_from_the_collapsed_stacks(tmp_path, repo):
    from httplab.cli import main

    raw = tmp_path / "run" / "raw"
    raw.mkdir(parents=True)
    profiled_run(raw, "webflux+profiled-t2-c20", "webflux-cpu-local.collapsed.txt", 0.06)
    report = ["--repo", str(repo), "report", "--from", str(raw.parent), "--image",
              str(tmp_path / "chart.png")]
    assert main(report) == 0
    written = json.loads((raw.parent / "results.json").read_text())
    written["servers"] = [{**vars(WEBFLUX), "framework_packages": ["org.springframework",
                                                                  "reactor"]}]
    (raw.parent / "results.json").write_text(json.dumps(written))  # as make bench wrote it
    (raw / "webflux+profiled-t2-c20.collapsed.txt").write_text(
        "java/lang/Thread.run;reactor/netty/channel/ChannelOperations.onInboundNext 9\n"
        "java/lang/Thread.run;io/netty/channel/epoll/Native.epollWait;epoll_pwait2 3\n")
    assert main(report) == 0
    (profile,) = json.loads((raw.parent / "results.json").read_text())["cells"][0]["profiles"]
    assert (profile["samples"], profile["layers"]["framework"], profile["layers"]["kernel"]) == (
        12, 9, 3)
