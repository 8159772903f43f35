"""End to end in containers: every server image built and benchmarked, wrk in its own
container, all on host networking against 127.0.0.1. In CI (CI=true) a missing engine
fails these tests; on a laptop without Docker they are skipped, saying why."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess

import pytest

from httplab.running.backends.docker import DockerBackend
from httplab.cli import main
from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir

from tests.conftest import port_is_listening
from tests.docker_support import engine_problem, require
from tests.support.io_uring import require_io_uring
from tests.support.png_charts import png_size

COMPOSES = {"v2": ["docker", "compose"], "v1": ["docker-compose"]}


def _compose_problem(compose: list[str]) -> str | None:
    try:
        found = subprocess.run([*compose, "version"], capture_output=True).returncode == 0
    except OSError:
        found = False
    return None if found else f"`{' '.join(compose)}` is not installed"


def _project_containers() -> list[str]:
    listed = subprocess.run(["docker", "ps", "-aq", "--filter",
                             "label=com.docker.compose.project=httplab"],
                            capture_output=True, text=True, check=True)
    return listed.stdout.split()


def _compose_config(compose: list[str], files: list[str], env: dict[str, str]
                    ) -> subprocess.CompletedProcess[str]:
    arguments = [argument for name in files for argument in ("-f", str(DEFAULT_REPO / name))]
    return subprocess.run([*compose, *arguments, "--profile", "wrk", "config"],
                          capture_output=True, text=True, cwd=DEFAULT_REPO, env=env)


@pytest.mark.docker
@pytest.mark.parametrize("version", sorted(COMPOSES))
@pytest.mark.parametrize("files", [["docker-compose.yml"],
                                   ["docker-compose.yml", "docker-compose.bridge.yml"]],
                         ids=["host", "bridge"])
def test_compose_renders_the_one_server_service_for_every_server(version, files):
    compose = COMPOSES[version]
    require(_compose_problem(compose))
    backend = DockerBackend(DEFAULT_REPO)
    for manifest in discover(servers_dir(DEFAULT_REPO)):
        chosen = backend.server_environment(manifest.name)
        config = _compose_config(compose, files, {**os.environ, **chosen})
        assert config.returncode == 0, config.stderr
        assert f"image: httplab/{manifest.name}:latest" in config.stdout
        assert re.search(rf"^ +SERVER: {manifest.name}$", config.stdout, re.MULTILINE)
        assert f"dockerfile: {chosen['HTTPLAB_DOCKERFILE']}" in config.stdout
        # The port is the manifest's unless HTTPLAB_PORT gives another (make pairing-study's
        # two sides): unset, Compose hands the server an empty PORT, which it reads as unset.
        port = re.search(r"^ +PORT: *(.*)$", config.stdout, re.MULTILINE)
        assert port is None or port[1] in ("", "''", '""'), config.stdout
        assert "docker.sock" not in config.stdout
        if files == ["docker-compose.yml"]:
            assert config.stdout.count("network_mode: host") >= 2


@pytest.mark.docker
@pytest.mark.parametrize("version", sorted(COMPOSES))
def test_compose_without_a_server_named_says_to_set_httplab_server(version):
    compose = COMPOSES[version]
    require(_compose_problem(compose))
    env = {name: value for name, value in os.environ.items() if name != "HTTPLAB_SERVER"}
    config = _compose_config(compose, ["docker-compose.yml"], env)
    assert config.returncode != 0
    assert "HTTPLAB_SERVER=netty" in config.stderr, config.stderr


@pytest.mark.docker
@pytest.mark.slow
def test_docker_bench_of_every_server(tmp_path, repo, manifests):
    require(engine_problem())
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    image = tmp_path / "result1.png"
    code = main(["--repo", str(repo), "bench", "--backend", "docker", "--threads", "2",
                 "--connections", "50", "--duration", "2s", "--primer", "1s", "--warmup", "2s",
                 "--results-dir", str(tmp_path / "results"), "--image", str(image)])
    data = json.loads(((tmp_path / "results" / "latest").resolve() / "results.json").read_text())
    failures = [(c["server"], c["reason"]) for c in data["cells"] if c["status"] != "ok"]
    assert code == 0 and not failures, failures
    assert len(data["cells"]) == len(manifests)
    for cell in data["cells"]:
        assert cell["runs"][0]["requests"] > 0 and cell["runs"][0]["non_2xx_3xx"] == 0
        usage = cell["resources"][0]
        assert usage["unavailable"] is None, usage
        assert usage["cpu_cores"] > 0 and usage["memory_peak_bytes"] > 2**20  # nginx: ~8 MiB
    for server in data["servers"]:
        assert server["verification"].startswith("all "), server
        assert server["image_size_bytes"] > 0 and server["image_id"].startswith("sha256:")
        assert (server["java_version"] or server["role"] == "reference"), server
        assert 0 < server["startup_seconds"] < 180
    assert data["host"]["docker"] and data["host"]["compose"]
    assert png_size(image.read_bytes())[0] > 800
    assert png_size((tmp_path / "result2.png").read_bytes())[0] > 800
    assert _project_containers() == [], "containers were left behind"
    assert not port_is_listening(8080)


@pytest.mark.docker
@pytest.mark.slow
def test_docker_bench_with_the_ceiling_and_both_worker_settings(tmp_path, repo):
    require(engine_problem())
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    code = main(["--repo", str(repo), "bench", "--servers", "netty,armeria", "--settings",
                 "original,default", "--ceiling", "1", "--threads", "2", "--connections", "50",
                 "--duration", "2s", "--primer", "1s", "--warmup", "1s",
                 "--results-dir", str(tmp_path / "results"), "--image",
                 str(tmp_path / "result1.png")])
    run_dir = (tmp_path / "results" / "latest").resolve()
    rows = list(csv.DictReader((run_dir / "results.csv").open()))
    assert code == 0, [(row["server"], row["reason"]) for row in rows if row["status"] != "ok"]
    assert [row["server"] for row in rows] == [
        "nginx", "netty", "netty@default", "armeria", "armeria@default"], "the ceiling first"
    for row in rows:
        assert float(row["cpu_us_per_request"]) > 0 and float(row["host_busy_cores"]) > 0, row
        assert row["limited_by"] in ("server", "loadgen", "shared", "none"), row
        assert (row["share_of_ceiling"] == "") == (row["server"] == "nginx"), row
    assert "Armeria (16 workers)" in {row["framework"] for row in rows}
    assert any(row["framework"].endswith("workers, default)") for row in rows)
    assert (tmp_path / "result-cpu.png").is_file()
    # h2load ran in the wrk image after each measured run, and read all 50 connections
    assert all(float(row["fairness_spread"]) >= 1 for row in rows), rows
    cells = json.loads((run_dir / "results.json").read_text())["cells"]
    assert all(len(cell["fairness"][0]["connection_bytes"]) == 50 for cell in cells)
    assert (tmp_path / "result4.png").is_file()
    assert _project_containers() == [], "containers were left behind"


@pytest.mark.docker
@pytest.mark.slow
def test_docker_bench_of_netty_on_jdk_17_and_25_records_each_rows_jdk(tmp_path, repo):
    require(engine_problem())
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    code = main(["--repo", str(repo), "bench", "--servers", "netty", "--jdk", "17,25",
                 "--ceiling", "0", "--fairness", "0", "--threads", "2", "--connections", "50",
                 "--duration", "2s", "--primer", "0", "--warmup", "1s",
                 "--results-dir", str(tmp_path / "results"), "--image",
                 str(tmp_path / "result1.png")])
    data = json.loads(((tmp_path / "results" / "latest").resolve() / "results.json").read_text())
    assert code == 0 and {cell["status"] for cell in data["cells"]} == {"ok"}
    said = {server["name"]: (server["jdk"], server["startup_line"].split(" java=")[1].split()[0])
            for server in data["servers"]}
    assert said.keys() == {"netty@jdk17", "netty"}
    assert said["netty@jdk17"][0] == "17" and said["netty@jdk17"][1].startswith("17.")
    assert said["netty"][0] == "25" and said["netty"][1].startswith("25.")
    assert data["settings"]["jdks"] == ["17", "25"]
    assert _project_containers() == [], "containers were left behind"


@pytest.mark.docker
@pytest.mark.slow
def test_docker_bench_of_every_framework_on_both_executors_at_blocking(tmp_path, repo):
    """EXECUTOR=pool,virtual at WORKLOAD=blocking: each framework's variant measured, its
    ready line saying the executor asked (the check proved its /blocking waited on that
    kind of thread), or not applicable with its reason (Undertow on virtual threads,
    Helidon on a pool); nothing left behind."""
    require(engine_problem())
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    code = main(["--repo", str(repo), "bench", "--executor", "pool,virtual",
                 "--workload", "blocking", "--ceiling", "0", "--fairness", "0",
                 "--threads", "2", "--connections", "50", "--duration", "2s", "--primer", "0",
                 "--warmup", "1s", "--results-dir", str(tmp_path / "results"), "--image",
                 str(tmp_path / "result1.png")])
    data = json.loads(((tmp_path / "results" / "latest").resolve() / "results.json").read_text())
    assert code == 0 and data["settings"]["executors"] == ["pool", "virtual"]
    status = {cell["server"]: cell["status"] for cell in data["cells"]}
    assert {status["undertow@virtual"], status["helidon"]} == {"not applicable"}
    assert {state for key, state in status.items()
            if key not in ("undertow@virtual", "helidon")} == {"ok"}
    for server in data["servers"]:
        said = server["startup_line"] or ""
        assert server["not_applicable"] or f" executor={server['executor']} " in said, said
    assert _project_containers() == [], "containers were left behind"


@pytest.mark.docker
@pytest.mark.slow
def test_docker_bench_of_netty_on_every_transport(tmp_path, repo):
    """TRANSPORT=nio,epoll,io_uring in Docker: io_uring tried once before any load, three
    variants each saying the engine it ran on, only the io_uring one under the profile the
    try chose (the engine's own where it allows io_uring); nothing left behind."""
    require(engine_problem())
    require_io_uring()
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    code = main(["--repo", str(repo), "bench", "--servers", "netty",
                 "--transport", "nio,epoll,io_uring", "--threads", "2", "--connections", "20",
                 "--duration", "1s", "--primer", "0", "--warmup", "0", "--ceiling", "0",
                 "--fairness", "0", "--results-dir", str(tmp_path / "results"),
                 "--image", str(tmp_path / "result1.png")])
    data = json.loads(((tmp_path / "results" / "latest").resolve() / "results.json").read_text())
    assert code == 0 and {cell["status"] for cell in data["cells"]} == {"ok"}
    said = {server["name"]: (server["transport"], server["seccomp"])
            for server in data["servers"]}
    assert {name: transport for name, (transport, _) in said.items()} == {
        "netty@nio": "nio", "netty@epoll": "epoll", "netty@io_uring": "io_uring"}
    assert said["netty@nio"][1] == said["netty@epoll"][1] == "default"
    assert said["netty@io_uring"][1] in ("default", "io_uring.json")
    assert _project_containers() == [], "containers were left behind"
