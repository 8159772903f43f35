"""SERVER_HOST, LOADGEN_HOSTS and TARGET_ADDRESS: parsing, defaults, the load split, the
generators' commands and the engines' clocks; pure but for one docker test of the common start."""

import subprocess
import time

import pytest

from httplab.cli import main
from httplab.running.docker.compose import WRK_IMAGE, WRK_SCRIPT_IN_IMAGE
from httplab.running.docker.compose import CONTAINER_NOFILE
from httplab.running.backends.generators import (JSON_IN_CONTAINER, WAIT_THEN_WRK, 
                                                 create_command, generator_paths, plan_jobs)
from httplab.running.docker.remote import parse_info, parse_system_time
from httplab.running.engines import Engine, make_topology, parse_engine, split_evenly, split_load
from httplab.plan_error import PlanError
from httplab.loadtools.wrk.command import WrkRequest
from tests.docker_support import engine_problem, first_present_image, require
from tests.conftest import TESTS_DIR

REPO = TESTS_DIR.parents[1]


@pytest.mark.parametrize("text, kind, host", [
    ("ssh://root@10.0.0.2", "ssh", "10.0.0.2"),
    ("ssh://bench@server.example:2222", "ssh", "server.example"),
    ("unix:///run/docker-gen1.sock", "unix", None),
    ("lab-server", "context", None),
])
def test_engines_are_read_as_the_docker_cli_reads_them(text, kind, host):
    engine = parse_engine("SERVER_HOST", text)
    assert (engine.kind, engine.host_name) == (kind, host)


@pytest.mark.parametrize("text, message", [
    ("tcp://10.0.0.2:2375", "no Docker TCP port"),
    ("ssh://", "is not ssh://"),
    ("unix://relative.sock", "unix:///absolute"),
    ("not a name!", "neither"),
])
def test_bad_engines_are_refused_naming_the_setting(text, message):
    with pytest.raises(PlanError, match=f"SERVER_HOST.*{message}"):
        parse_engine("SERVER_HOST", text)


def test_an_engine_is_reached_through_the_docker_clis_own_variables():
    assert Engine("ssh://root@h", "ssh").environment() == {"DOCKER_HOST": "ssh://root@h",
                                                          "DOCKER_CONTEXT": ""}
    assert Engine("lab", "context").environment() == {"DOCKER_CONTEXT": "lab", "DOCKER_HOST": ""}


def test_nothing_set_is_todays_one_machine():
    assert make_topology("", "", "") is None


@pytest.mark.parametrize("server, generators, target, expected", [
    ("ssh://root@10.9.0.2", "", "", "10.9.0.2"),
    ("ssh://root@10.9.0.2", "ssh://root@10.9.1.2", "10.9.0.3", "10.9.0.3"),
    ("", "ssh://root@10.9.1.2", "192.0.2.7", "192.0.2.7"),
])
def test_the_target_is_the_server_hosts_name_unless_given(server, generators, target, expected):
    assert make_topology(server, generators, target).target_address == expected


@pytest.mark.parametrize("server, generators, target, message", [
    ("unix:///run/d.sock", "", "", "TARGET_ADDRESS is needed"),
    ("", "ssh://root@a", "", "TARGET_ADDRESS is needed"),
    ("ssh://root@a", "ssh://root@b,ssh://root@b", "", "more than once"),
    ("ssh://root@a", "", "not an address!", "neither an IP address"),
])
def test_settings_that_cannot_work_together_are_refused(server, generators, target, message):
    with pytest.raises(PlanError, match=message):
        make_topology(server, generators, target)


@pytest.mark.parametrize("total, parts, shares", [
    (500, 2, (250, 250)), (5, 2, (3, 2)), (7, 3, (3, 2, 2)), (1, 1, (1,)),
])
def test_an_even_split_gives_the_remainder_to_the_first(total, parts, shares):
    assert split_evenly(total, parts) == shares
    assert sum(shares) == total


@pytest.mark.parametrize("threads, connections, generators, expected", [
    (10, 500, 2, ((5, 250), (5, 250))),
    (5, 500, 2, ((3, 250), (2, 250))),
    (1, 20, 2, ((1, 10), (1, 10))),  # at least one thread each
    (4, 3, 3, ((1, 1), (1, 1), (1, 1))),  # never more threads than connections
])
def test_threads_and_connections_are_split_across_generators(threads, connections, generators,
                                                             expected):
    assert split_load(threads, connections, generators) == expected


def test_more_generators_than_connections_is_refused():
    with pytest.raises(PlanError, match="3 load generators need at least 3 connections"):
        split_load(1, 2, 3)


def test_each_generator_gets_its_share_and_its_own_files(tmp_path):
    engines = (Engine("ssh://root@a", "ssh"), Engine("unix:///g.sock", "unix"))
    request = WrkRequest(5, 500, "10s", 10, "http://10.9.0.2:8080/")
    jobs = plan_jobs(request, engines, tmp_path / "netty-t5-c500", "httplab-wrk-1")
    assert [(j.request.threads, j.request.connections) for j in jobs] == [(3, 250), (2, 250)]
    assert [j.text_path.name for j in jobs] == ["netty-t5-c500.g1.txt", "netty-t5-c500.g2.txt"]
    assert [j.container for j in jobs] == ["httplab-wrk-1-g1", "httplab-wrk-1-g2"]
    command = create_command(jobs[0], cpus="0", start_at_s=1795404001.25)
    assert command[:3] == ["create", "--name", "httplab-wrk-1-g1"]
    assert ["--network", "host"] == command[3:5] and "--cpuset-cpus" in command
    assert f"HTTPLAB_WRK_JSON={JSON_IN_CONTAINER}" in command
    assert command[command.index("-c"):command.index("-c") + 3] == ["-c", WAIT_THEN_WRK,
                                                                    "1795404001.250"]
    assert command[-7:] == ["-t3", "-c250", "-d10s", "--latency", "-s", WRK_SCRIPT_IN_IMAGE,
                            "http://10.9.0.2:8080/"]


def test_one_generator_keeps_todays_file_names(tmp_path):
    assert generator_paths(tmp_path / "netty-t2-c20", 1, 1) == (tmp_path / "netty-t2-c20.txt",
                                                                 tmp_path / "netty-t2-c20.json")


def test_the_generators_open_file_limit_is_the_compose_files():
    assert f"nofile: {{soft: {CONTAINER_NOFILE}, hard: {CONTAINER_NOFILE}}}" in \
        (REPO / "docker-compose.yml").read_text()


@pytest.mark.parametrize("text, seconds", [
    ("2026-11-23T03:20:01.123456789Z", 1795404001.123456),
    ("2026-11-23T04:20:01+01:00", 1795404001.0),
    ("garbage", None),
])
def test_an_engines_clock_is_read_from_docker_info(text, seconds):
    found = parse_system_time(text)
    assert found == pytest.approx(seconds) if seconds else found is None


def test_an_engines_machine_is_recorded_with_its_clock_offset():
    line = "20.10.24|2026-11-23T03:20:01.5Z|gen1|2|25165824000|6.1.0|Debian GNU/Linux 12"
    info = parse_info("ssh://root@a", "load generator", line, 1795404001.0)
    assert (info.hostname, info.cores, info.memory_bytes, info.docker) == \
        ("gen1", 2, 25165824000, "20.10.24")
    assert info.clock_offset_s == pytest.approx(0.5)


@pytest.mark.parametrize("extra, message", [
    (["--loadgen-hosts", "ssh://root@a,ssh://root@b,ssh://root@c", "--target-address",
      "10.9.0.2", "--connections", "2", "--threads", "1"], "3 load generators need"),
    (["--server-host", "ssh://root@a", "--backend", "local"], "need BACKEND=docker"),
    (["--server-host", "tcp://a:2375"], "no Docker TCP port"),
])
def test_bad_host_settings_stop_the_bench_before_any_load(extra, message, capsys):
    assert main(["--repo", str(REPO), "bench", "--servers", "netty", *extra]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.docker
@pytest.mark.slow
def test_a_generator_waits_for_the_common_start_then_becomes_wrk():
    require(engine_problem())
    if first_present_image(WRK_IMAGE) is None:
        pytest.skip(f"{WRK_IMAGE} is not built (make bench builds it)")
    start_at = time.time() + 2.0
    done = subprocess.run(["docker", "run", "--rm", "--network", "none", "--entrypoint", "sh",
                           WRK_IMAGE, "-c", WAIT_THEN_WRK, f"{start_at:.3f}", "-v"],
                          capture_output=True, text=True, timeout=60)
    assert time.time() >= start_at
    assert "wrk" in (done.stdout + done.stderr).splitlines()[0]
