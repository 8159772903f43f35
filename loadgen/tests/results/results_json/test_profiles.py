"""results.json format 10: each run's and step's profile, whether each server was profiled
and its framework packages, and the settings' profile and profile_event round-trip; files
of format 9 still read, with no profile."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from httplab.model import HotFrame, RunProfile
from httplab.presentation.json.results import JsonExporter
from httplab.results.results_json.read import profile_from_dict, result_from_dict
from httplab.results.results_json.write import profile_to_dict, result_to_dict
from tests.latency_sample import latency_sample_result
from tests.support.results_formats import as_format
from tests.profile_sample import profile_sample_result

PROFILE = RunProfile(
    "cpu", 5_000_000, samples=800, layers=(("kernel", 500), ("JDK", 100), ("Netty", 200)),
    hot_frames=(HotFrame("tcp_sendmsg_locked_[k]", "kernel", 90),
                HotFrame("io/netty/channel/epoll/Native.epollWait", "Netty", 40)),
    measured_cpu_seconds=5.5, mismatch="800 samples x 5 ms = 4.00 s of CPU, ...",
    collapsed_file="raw/netty+profiled-t5-c500-r1.collapsed.txt",
    flame_graph_file="raw/netty+profiled-t5-c500-r1.flame.html")


@pytest.mark.parametrize("profile", [
    PROFILE, RunProfile("itimer", 5_000_000, failure="jattach: return code 200"),
    RunProfile("alloc", 524288, samples=3, layers=(("other", 3),)),
])
def test_a_profile_round_trips(profile):
    assert profile_from_dict(json.loads(json.dumps(profile_to_dict(profile)))) == profile


def test_the_json_names_the_layers_and_the_cpu_the_samples_stand_for():
    data = profile_to_dict(PROFILE)
    assert data["layers"] == {"kernel": 500, "JDK": 100, "Netty": 200}
    assert data["profiled_cpu_seconds"] == 4.0
    assert data["hot_frames"][0] == {"frame": "tcp_sendmsg_locked_[k]", "layer": "kernel",
                                     "samples": 90}


def test_a_profiled_bench_round_trips_through_results_json():
    result = profile_sample_result()
    assert any(cell.profiles for cell in result.cells)
    assert any(server.profiled and server.framework_packages for server in result.servers)
    assert result_from_dict(json.loads(JsonExporter().render(result))) == result


def test_a_latency_steps_profile_round_trips():
    result = latency_sample_result()
    steps = (replace(result.latency.steps[0], profile=PROFILE), *result.latency.steps[1:])
    result = replace(result, latency=replace(result.latency, steps=steps))
    assert result_from_dict(json.loads(json.dumps(result_to_dict(result)))) == result


def test_a_format_9_file_reads_with_no_profile():
    data = as_format(result_to_dict(profile_sample_result()), 9)
    for key in ("profile", "profile_event"):
        del data["settings"][key]
    for server in data["servers"]:
        del server["profiled"], server["framework_packages"]
    for cell in data["cells"]:
        del cell["profiles"]
    result = result_from_dict(data)
    assert (result.settings.profile, result.settings.profile_event) == ((False,), None)
    assert all(not s.profiled and s.framework_packages == () for s in result.servers)
    assert all(cell.profiles == () for cell in result.cells)
