"""End to end on the local backend: two real servers, a primer and a warm-up that are not
measured, two measured runs per cell, real files written."""

from __future__ import annotations

import fnmatch
import json

import pytest

from httplab.results.raw_archive import raw_file_exists, raw_names
from httplab.cli import main

from tests.conftest import port_is_listening
from tests.support.io_uring import require_io_uring
from tests.support.png_charts import png_size

pytestmark = pytest.mark.shared_host  # the bench serves on the manifests' port

SERVERS = ("netty", "vertx")


@pytest.fixture(scope="module")
def local_run(tmp_path_factory, repo):
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    out = tmp_path_factory.mktemp("local-run")
    code = main(["--repo", str(repo), "bench", "--backend", "local", "--servers", ",".join(SERVERS),
                 "--threads", "2", "--connections", "50", "--duration", "2s", "--repeat", "2",
                 "--primer", "1s", "--warmup", "2s", "--ceiling", "0",
                 "--results-dir", str(out / "results"),
                 "--image", str(out / "result1.png")])
    run_dir = (out / "results" / "latest").resolve()
    return code, run_dir, json.loads((run_dir / "results.json").read_text()), out


@pytest.mark.slow
def test_every_cell_has_two_measured_runs_with_answers_and_resources(local_run):
    code, _, data, _ = local_run
    assert code == 0
    assert [(c["server"], c["threads"], c["connections"]) for c in data["cells"]] == \
        [(name, 2, 50) for name in SERVERS]
    for cell in data["cells"]:
        assert cell["status"] == "ok" and len(cell["runs"]) == 2
        for run, usage in zip(cell["runs"], cell["resources"]):
            assert run["requests"] > 0 and run["non_2xx_3xx"] == 0
            assert run["latency_us"]["percentiles"]["p99.9"] >= run["latency_us"]["percentiles"]["p50"]
            assert usage["unavailable"] is None and usage["source"] == "/proc"
            assert usage["cpu_cores"] > 0 and usage["memory_peak_bytes"] > 10 * 2**20
        assert cell["requests_per_sec_summary"]["n"] == 2


@pytest.mark.slow
def test_h2load_follows_every_measured_run_and_sees_every_connection(local_run):
    _, run_dir, data, _ = local_run
    assert data["settings"]["fairness"] is True
    for cell in data["cells"]:
        assert len(cell["fairness"]) == 2, "one h2load run after each measured run"
        for run in cell["fairness"]:
            assert run["succeeded"] > 0 and run["tool"].startswith("h2load nghttp2/")
            assert len(run["connection_bytes"]) == 50 and sum(run["connection_bytes"]) > 0
            assert 0 < run["sockets_from_s"] < run["sockets_to_s"] < 2.0
    # The run ended, so its raw files are in its archive; the socket readings were reduced
    # to each connection's bytes when h2load ended.
    for name in SERVERS:
        assert raw_file_exists(run_dir / "raw" / f"{name}-t2-c50-r1.h2load.txt")
        assert raw_file_exists(run_dir / "raw" / f"{name}-t2-c50-r2.connections.json")


@pytest.mark.slow
def test_primer_and_warmup_are_kept_apart_from_the_measured_runs(local_run):
    _, run_dir, data, _ = local_run
    settings = data["settings"]
    assert (settings["repeat"], settings["primer_s"], settings["warmup_s"]) == (2, 1.0, 2.0)
    assert fnmatch.filter(raw_names(run_dir / "raw"), "*-r?.txt") == sorted(
        f"{name}-t2-c50-r{repeat}.txt" for name in SERVERS for repeat in (1, 2))
    # Unmeasured files are dropped when the run ends (KEEP_UNMEASURED=0), a line each kept.
    assert raw_names(run_dir / "raw" / "unmeasured") == []
    summarised = (run_dir / "raw" / "unmeasured.log").read_text()
    assert sorted({line.split(":")[0] for line in summarised.splitlines()}) == sorted(
        f"{name}-{phase}-r{round_number}" for name in SERVERS
        for phase in ("primer", "warmup") for round_number in (1, 2))
    rounds = {cell["server"]: [run["round"] for run in cell["runs"]] for cell in data["cells"]}
    assert set(map(tuple, rounds.values())) == {(1, 2)}, "each run records its round"


@pytest.mark.slow
def test_tables_charts_and_server_records_are_written(local_run):
    _, run_dir, data, out = local_run
    markdown = (run_dir / "results.md").read_text()
    assert "| Netty | 2 | 50 |" in markdown and "| Vert.x | 2 | 50 |" in markdown
    assert (run_dir / "results.csv").read_text().count("\n") == 3
    for server in data["servers"]:
        assert server["verification"].startswith("all ")
        assert 0 < server["startup_seconds"] < 60 and server["java_version"]
    assert data["lab_commit"]
    assert png_size((out / "result1.png").read_bytes())[0] > 800
    assert png_size((out / "result2.png").read_bytes())[0] > 800
    assert not port_is_listening(8080), "a server was left running on port 8080"


@pytest.mark.slow
def test_netty_on_every_transport_says_each_engine_it_ran_on(tmp_path, repo):
    """TRANSPORT=nio,epoll,io_uring locally: three variants, each checked before its load
    against the engine its ready line names, each a measured cell."""
    require_io_uring()
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    code = main(["--repo", str(repo), "bench", "--backend", "local", "--servers", "netty",
                 "--transport", "nio,epoll,io_uring", "--threads", "2", "--connections", "20",
                 "--duration", "1s", "--primer", "0", "--warmup", "0", "--ceiling", "0",
                 "--fairness", "0", "--results-dir", str(tmp_path / "results"),
                 "--image", str(tmp_path / "result1.png")])
    data = json.loads(((tmp_path / "results" / "latest").resolve() / "results.json").read_text())
    assert code == 0 and data["settings"]["transports"] == ["nio", "epoll", "io_uring"]
    said = {server["name"]: server["transport"] for server in data["servers"]}
    assert said == {"netty@nio": "nio", "netty@epoll": "epoll", "netty@io_uring": "io_uring"}
    assert {cell["status"] for cell in data["cells"]} == {"ok"}
    assert all(server["seccomp"] is None for server in data["servers"])  # no container
