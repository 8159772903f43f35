"""The stall meter as a real process: it writes a JSON its reader takes, with one record per
CPU it may run on (or per CPU asked, with what runs there), each costing little (its own
loop's CPU under 5 % of a core over 2 s, a bound generous enough for a loaded host;
measured here it is under 1 %: docs/method.md); SIGTERM ends it early with its figures,
and no child outlives a meter killed outright. It sees a host stall on the CPU it took:
beside a SCHED_FIFO busy loop pinned to one CPU that takes it for 40 ms every 300 ms, that
CPU's record wakes at least 30 ms late, the other CPU's does not, and without the loop
neither does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from httplab.loadtools.stall_meter.__main__ import REAL_TIME, chosen_cpus, real_time_priority
from httplab.loadtools.stall_meter.report import host_stalls

from tests.stalls_sample import BUSY_LOOP

PACKAGE_ROOT = Path(__file__).resolve().parents[3]  # loadgen/, where httplab is
METER = [sys.executable, "-m", "httplab.loadtools.stall_meter"]
COST_BOUND_CORES = 0.05


def run_meter(tmp_path: Path, seconds: float, *arguments: str) -> dict:
    out = tmp_path / "meter.stalls.json"
    subprocess.run([*METER, "--duration-s", str(seconds), "--out", str(out), *arguments],
                   cwd=PACKAGE_ROOT, check=True, timeout=seconds + 30)
    return json.loads(out.read_text())


def test_a_two_second_run_writes_each_cpus_figures_and_each_costs_little(tmp_path):
    data = run_meter(tmp_path, 2)
    stalls = host_stalls(data)
    assert data["stopped_by"] == "duration"
    assert [record.cpu for record in stalls.cpus] == sorted(os.sched_getaffinity(0))
    for record in stalls.cpus:
        assert record.covered_s == pytest.approx(2, abs=0.2) and record.samples > 100
        assert record.interval_us == 10_000 and record.role == ""
        assert record.max_us is not None and record.p99_us is not None
        assert record.meter_cores < COST_BOUND_CORES, f"a meter cost {record.meter_cores:.2%}"
        assert record.steal_s is not None and record.steal_s >= 0
    assert stalls.samples == sum(record.samples for record in stalls.cpus)


def test_it_meters_the_cpus_asked_with_what_runs_there(tmp_path):
    data = run_meter(tmp_path, 0.3, "--cpu", "0=server", "--cpu", "0", "--cpu", "999=gone")
    assert [(record["cpu"], record["role"]) for record in data["cpus"]] == [(0, "")]
    data = run_meter(tmp_path, 0.3, "--cpu", "0=server", "--role", "load tool")
    assert [(record["cpu"], record["role"]) for record in data["cpus"]] == [(0, "server")]


@pytest.mark.parametrize("asked, role, allowed, chosen", [
    ([], "", {0, 1}, {0: "", 1: ""}),
    ([], "load tool", {2, 3}, {2: "load tool", 3: "load tool"}),
    (["1=load tool", "0=server"], "", {0, 1}, {0: "server", 1: "load tool"}),
    (["1"], "load tool", {0, 1}, {1: "load tool"}),
    (["5=server"], "load tool", {0, 1}, {0: "load tool", 1: "load tool"}),  # not allowed here
])
def test_the_cpus_chosen(asked, role, allowed, chosen):
    assert chosen_cpus(asked, role, allowed) == chosen


def test_it_runs_as_a_real_time_task_where_it_may_and_says_how_it_ran(tmp_path):
    """As root it gets SCHED_FIFO 1, so a run that keeps every CPU busy cannot delay it;
    elsewhere it says it ran as an ordinary process, and why."""
    stalls = host_stalls(run_meter(tmp_path, 0.5))
    for record in (stalls, *stalls.cpus):
        if os.geteuid() == 0:
            assert record.priority == REAL_TIME and record.real_time
        else:
            assert record.priority.startswith("normal (") and not record.real_time


@pytest.mark.parametrize("note, priority", [
    (None, "normal ([Errno 1] refused)"),
    ("the engine gave no real-time share", "normal ([Errno 1] refused; the engine gave no "
                                           "real-time share)")])
def test_refused_it_says_why_with_what_the_lab_knows(monkeypatch, note, priority):
    def refuse(*_):
        raise PermissionError(1, "refused")
    monkeypatch.setattr(os, "sched_setscheduler", refuse)
    assert real_time_priority(note) == priority


def test_sigterm_ends_it_with_its_figures(tmp_path):
    out = tmp_path / "meter.stalls.json"
    meter = subprocess.Popen([*METER, "--duration-s", "60", "--out", str(out)], cwd=PACKAGE_ROOT)
    try:
        time.sleep(1.0)
        meter.send_signal(signal.SIGTERM)
        assert meter.wait(timeout=10) == 0
    finally:
        meter.kill()
        meter.wait()
    data = json.loads(out.read_text())
    assert data["stopped_by"] == "SIGTERM" and data["cpus"]
    assert all(record["stopped_by"] == "SIGTERM" and record["samples"] > 10
               for record in data["cpus"])


def _children(pid: int) -> set[int]:
    listed = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                            text=True).stdout
    return {int(child) for child in listed.split()}


def test_a_meter_killed_outright_leaves_no_child_metering(tmp_path):
    meter = subprocess.Popen([*METER, "--duration-s", "60", "--out", str(tmp_path / "x.json")],
                             cwd=PACKAGE_ROOT, stderr=subprocess.PIPE)
    try:
        meter.stderr.readline()
        time.sleep(0.5)
        children = _children(meter.pid)
        assert len(children) == len(os.sched_getaffinity(0))
    finally:
        meter.kill()
        meter.wait()
    deadline = time.monotonic() + 5
    while children and time.monotonic() < deadline:
        children = {pid for pid in children if Path(f"/proc/{pid}").exists()}
        time.sleep(0.1)
    assert not children, f"meters {children} outlived their parent"


def _late_wakeups(record: dict, at_least_us: int) -> int:
    """Wake-ups at least at_least_us late (the meter writes each lateness exactly)."""
    return sum(count for late_us, count in record["lateness_us"] if late_us >= at_least_us)


def _by_cpu(data: dict) -> dict[int, dict]:
    return {record["cpu"]: record for record in data["cpus"]}


@pytest.mark.alone  # a quiet CPU must not stall
@pytest.mark.slow
def test_a_stall_on_one_cpu_is_seen_on_that_cpu_alone(tmp_path):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 CPUs: one stalled, one quiet")
    quiet, cpu = sorted(os.sched_getaffinity(0))[-2:]
    if subprocess.run(["chrt", "-f", "50", "true"], capture_output=True).returncode != 0:
        pytest.skip("chrt -f (SCHED_FIFO) is refused here: needs root or CAP_SYS_NICE")
    busy = subprocess.Popen(["chrt", "-f", "50", "taskset", "-c", str(cpu), sys.executable,
                             "-c", BUSY_LOOP.format(seconds=10)])
    try:
        stalled = _by_cpu(run_meter(tmp_path, 3))
    finally:
        busy.kill()
        busy.wait()
    clean = _by_cpu(run_meter(tmp_path, 3))
    assert stalled[cpu]["max_us"] >= 30_000 and _late_wakeups(stalled[cpu], 30_000) >= 5
    for record in (stalled[quiet], clean[quiet], clean[cpu]):
        assert _late_wakeups(record, 30_000) <= 1, "a quiet CPU stalled more than once"
