"""End to end on the local backend with the real jattach and agent: Netty profiled with
PROFILE=1 on a free port (never 8080), its measured run's collapsed stacks, flame graph
and record in raw/, none for its primer or warm-up."""

from __future__ import annotations

import fnmatch
import json
import os
from dataclasses import replace

import pytest

from httplab.results.raw_archive import raw_names, read_raw_text
from httplab.commands.bench import bench
from httplab.model import CPU_PROFILE_EVENTS
from httplab.paths import LUA_SCRIPT, servers_dir
from httplab.results.profile_record import record_from_dict
from httplab.running.backends.local import LocalBackend
from httplab.running.hostinfo import usable_cpu_set
from httplab.running.plan import make_plan

from tests.conftest import free_port, port_is_listening

STEM = "netty+profiled-t2-c20"


@pytest.fixture(scope="module")
def profiled_run(tmp_path_factory, repo, manifests):
    netty = replace(next(m for m in manifests if m.name == "netty"), port=free_port())
    settings = {"servers": "netty", "threads": "2", "connections": "20", "duration": "3s",
                "primer": "1s", "warmup": "2s", "ceiling": "0", "fairness": "0",
                "backend": "local", "profile": "1"}
    plan = make_plan(settings, (netty,), frozenset(usable_cpu_set()))
    out = tmp_path_factory.mktemp("profiled-local")
    code = bench(plan, LocalBackend(servers_dir(repo), LUA_SCRIPT), out / "results",
                 out / "result1.png", repo)
    assert not port_is_listening(netty.port), "the profiled server was left running"
    return code, (out / "results" / "latest").resolve() / "raw"


@pytest.mark.slow
def test_the_measured_run_leaves_its_stacks_flame_graph_and_record(profiled_run):
    code, raw = profiled_run
    assert code == 0
    record = record_from_dict(json.loads(read_raw_text(raw / f"{STEM}.profile.json")))
    assert record.failure is None and record.event in CPU_PROFILE_EVENTS
    if os.geteuid() == 0:  # the kernel's CPU clock is open to root here
        assert record.event == "cpu"
    assert record.interval == 5_000_000
    assert record.started_s < record.stopped_s < record.started_s + 10
    assert (record.collapsed, record.flame_graph) == (f"{STEM}.collapsed.txt",
                                                      f"{STEM}.flame.html")
    stacks = read_raw_text(raw / record.collapsed).splitlines()
    samples = sum(int(line.rsplit(" ", 1)[1]) for line in stacks)
    assert samples > 100, "3 s of a busy server at 200 samples a second per core"
    assert any("io/netty/" in line for line in stacks)
    if record.event == "cpu":
        assert any("_[k]" in line for line in stacks), "cpu sees the kernel's frames"
    page = (raw / record.flame_graph).read_text()
    assert page.lstrip().lower().startswith("<!doctype html>") and "</html>" in page


@pytest.mark.slow
def test_neither_the_primer_nor_the_warm_up_is_profiled(profiled_run):
    _, raw = profiled_run
    assert fnmatch.filter(raw_names(raw), "*.profile.json") == [f"{STEM}.profile.json"]
    assert raw_names(raw / "unmeasured") == []  # dropped when the run ended, never profiled
    assert "[ERROR]" not in (raw / "netty+profiled.log").read_text()
