"""A load tool's run as the docker backend drives it, without Docker: loadgen/cpu-times.sh
itself runs a stand-in tool on this host (as in the wrk image, its record goes beside the
tool's output), and run_loadgen hands the tool's CPU time on, its exit code and output
untouched, or None, harmlessly, when there is no record to read."""

from __future__ import annotations

import subprocess

import pytest

from httplab.running.backends import docker_loadgen
from httplab.running.backends.docker_loadgen import run_loadgen, taken_cpu_seconds

from tests.conftest import TESTS_DIR

CPU_TIMES_SCRIPT = TESTS_DIR.parent / "cpu-times.sh"
# A stand-in tool: a child of its own that burns CPU (so the children's children count),
# then a line on stdout and one on stderr, and an exit code of its own.
BUSY_TOOL = ["sh", "-c", "sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'; "
                         "echo report; echo complaint >&2; exit 3"]


@pytest.fixture(autouse=True)
def no_docker(monkeypatch):
    """run_loadgen removes the container whatever happens: there is none here."""
    removed = []
    monkeypatch.setattr(docker_loadgen, "command_output", removed.append)
    return removed


def test_the_tools_cpu_time_is_read_from_cpu_times_sh_and_its_record_removed(tmp_path,
                                                                             no_docker):
    record, report = tmp_path / "run.wrk.cpu.txt", tmp_path / "run.txt"
    with report.open("w") as stdout:
        outcome = run_loadgen(["sh", str(CPU_TIMES_SCRIPT), str(record), *BUSY_TOOL],
                              "httplab-wrk-1", {}, stdout, ("wrk", 30), record)
    assert (outcome.exit_code, outcome.stderr) == (3, "complaint")
    assert report.read_text() == "report\n"
    assert outcome.cpu_seconds is not None and outcome.cpu_seconds > 0
    assert not record.exists() and no_docker == [["docker", "rm", "-f", "httplab-wrk-1"]]


def test_no_record_is_no_cpu_time_and_no_failure(tmp_path):
    """A tool run without cpu-times.sh: the run stands, its CPU is estimated as before."""
    outcome = run_loadgen(["sh", "-c", "exit 0"], "httplab-wrk-1", {}, subprocess.DEVNULL,
                          ("wrk", 30), tmp_path / "run.wrk.cpu.txt")
    assert (outcome.exit_code, outcome.cpu_seconds) == (0, None)


def test_an_older_record_is_never_read_as_this_runs(tmp_path):
    record = tmp_path / "run.wrk.cpu.txt"
    record.write_text("clock_ticks_per_second 100\nstat 1 (sh) S 0 1 1 0 -1 0 0 0 0 0 0 0 "
                      "500 0 20 0 1 0 1 1 1\n")
    outcome = run_loadgen(["sh", "-c", "exit 0"], "httplab-wrk-1", {}, subprocess.DEVNULL,
                          ("wrk", 30), record)
    assert outcome.cpu_seconds is None and not record.exists()


def test_a_tool_killed_at_its_time_limit_fails_without_cpu_time(tmp_path):
    record = tmp_path / "run.oha.cpu.txt"
    outcome = run_loadgen(["sh", str(CPU_TIMES_SCRIPT), str(record), "sleep", "5"],
                          "httplab-wrk-1", {}, subprocess.DEVNULL, ("oha", 1), record)
    assert (outcome.exit_code, outcome.stderr, outcome.cpu_seconds) == \
        (-1, "oha did not finish within 1 s", None)


@pytest.mark.parametrize("text", ["", "not a record\n", "clock_ticks_per_second 100\n"])
def test_an_unreadable_record_is_no_cpu_time_and_is_removed(tmp_path, text):
    record = tmp_path / "run.h2load.cpu.txt"
    record.write_text(text)
    assert taken_cpu_seconds(record) is None and not record.exists()


def test_cpu_times_sh_writes_nothing_it_cannot_and_keeps_the_tools_exit_code(tmp_path):
    done = subprocess.run(["sh", str(CPU_TIMES_SCRIPT), str(tmp_path / "no" / "such.txt"),
                           "sh", "-c", "exit 5"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 5 and "cannot write" in done.stderr and done.stdout == ""
