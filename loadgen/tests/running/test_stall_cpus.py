"""The CPUs the stall meter watches and what runs on each: every CPU the server or the load
tool may use on this machine (its cpuset, or every usable CPU when unpinned), none of a side
on another machine; and the meter's command that says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from httplab.running.stall_cpus import cpu_roles, meter_arguments, side_cpus
from httplab.running.stall_metering import EngineStallMeter, host_stall_meter
from httplab.running.engines import Engine

USABLE = frozenset({0, 1})
BOTH = "server and load tool"


@pytest.mark.parametrize("server, here, cpus", [
    ("0", True, {0}), ("0-2,5", True, {0, 1, 2, 5}), (None, True, USABLE),
    ("0", False, set()), (None, False, set())])
def test_the_cpus_a_side_may_use_here(server, here, cpus):
    assert side_cpus(server, here, USABLE) == cpus


@pytest.mark.parametrize("server, load_tool, roles", [
    ({0}, {1}, {0: "server", 1: "load tool"}),  # SERVER_CPUS=0 LOADGEN_CPUS=1
    (USABLE, {1}, {0: "server", 1: BOTH}),  # LOADGEN_CPUS=1, the server unpinned
    (USABLE, USABLE, {0: BOTH, 1: BOTH}),  # neither pinned
    ({1}, set(), {1: "server"}),  # the load tool on other machines
    (set(), {0}, {0: "load tool"}),  # the server on another machine
    (set(), set(), {0: "", 1: ""}),  # neither here: every usable CPU
])
def test_each_cpu_metered_with_what_runs_there(server, load_tool, roles):
    assert cpu_roles(frozenset(server), frozenset(load_tool), USABLE) == roles
    assert list(cpu_roles(frozenset(server), frozenset(load_tool), USABLE)) == sorted(roles)


def test_the_meters_arguments_name_each_cpu_and_role():
    assert meter_arguments({0: "server", 1: BOTH}) == [
        "--cpu", "0=server", "--cpu", f"1={BOTH}"]


def test_this_machines_meter_is_told_each_cpu_and_role(monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: {0, 1})
    command = host_stall_meter((), "1")(Path("x.stalls.json"), 10).command()
    assert command[command.index("--cpu"):] == ["--cpu", "0=server", "--cpu", f"1={BOTH}"]
    command = host_stall_meter((), "1", "0")(Path("x.stalls.json"), 10).command()
    assert command[command.index("--cpu"):] == ["--cpu", "0=server", "--cpu", "1=load tool"]
    command = host_stall_meter((), None, None, server_here=False)(Path("x"), 10).command()
    assert command[command.index("--cpu"):] == ["--cpu", "0=load tool", "--cpu", "1=load tool"]


def test_an_engines_meter_watches_the_load_tool_on_each_of_its_cpus():
    meter = EngineStallMeter(Engine("ssh://lab@gen2", "ssh"), 1, Path("x"), 1, "2-3", {})
    arguments = meter.run_arguments(True)
    assert arguments[arguments.index("--role") + 1] == "load tool"
    assert arguments[arguments.index("--cpuset-cpus") + 1] == "2-3"
