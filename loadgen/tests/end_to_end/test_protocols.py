"""End to end over every protocol: Netty and Tomcat (and nginx, the ceiling) under PROTOCOL=
h1,h1-tls,h2c,h2, locally and in Docker. Each server says the protocol it served and its TLS
engine, passes the proof on the wire and the checks in that protocol before any load; the
HTTP/2 cells are h2load's, which spoke the protocol asked at the streams asked; the run's
TLS files are gone afterwards and nothing is left running."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import pytest

from httplab.cli import main
from httplab.running.tls.for_run import FOLDER

from tests.conftest import port_is_listening
from tests.docker_support import engine_problem, require

PROTOCOLS = ("h1", "h1-tls", "h2c", "h2")
SERVERS = ("netty", "tomcat")
STREAMS = 2


def _bench(repo: Path, out: Path, backend: str) -> dict:
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    tls_before = _run_tls_folders()
    code = main(["--repo", str(repo), "bench", "--backend", backend,
                 "--servers", ",".join(SERVERS), "--protocol", ",".join(PROTOCOLS),
                 "--streams", str(STREAMS), "--threads", "2", "--connections", "8",
                 "--duration", "1s", "--primer", "0", "--warmup", "0", "--ceiling", "1",
                 "--fairness", "0", "--results-dir", str(out / "results"),
                 "--image", str(out / "result1.png")])
    assert code == 0
    assert _run_tls_folders() == tls_before, "the run's TLS files were left behind"
    assert not port_is_listening(8080), "a server was left running on port 8080"
    return json.loads(((out / "results" / "latest").resolve() / "results.json").read_text())


def _run_tls_folders() -> set[str]:
    folder = Path(tempfile.gettempdir()) / FOLDER
    return {path.name for path in folder.iterdir()} if folder.exists() else set()


def _check_every_protocol(data: dict) -> None:
    names = [f"{server}{'' if protocol == 'h1' else '@' + protocol}"
             for server in ("nginx", *SERVERS) for protocol in PROTOCOLS]
    servers = {server["name"]: server for server in data["servers"]}
    assert sorted(servers) == sorted(names)
    for name, server in servers.items():
        protocol = name.partition("@")[2] or "h1"
        assert server["protocol"] == protocol
        assert server["tls_engine"] == ("none" if protocol in ("h1", "h2c") else
                                        "openssl" if name.startswith("nginx") else "jdk")
        assert server["verification"].startswith("all ")  # beyond h1, the proof on the wire too
    for cell in data["cells"]:
        assert cell["status"] == "ok", (cell["server"], cell.get("reason"))
        protocol = cell["server"].partition("@")[2] or "h1"
        for run in cell["runs"]:
            if protocol in ("h2c", "h2"):
                assert (run["tool"], run["protocol"], run["streams"]) == ("h2load", protocol,
                                                                          STREAMS)
            else:
                assert run.get("tool") in (None, "wrk")


@pytest.mark.shared_host
@pytest.mark.slow
def test_netty_and_tomcat_answer_every_protocol_locally(tmp_path, repo):
    _check_every_protocol(_bench(repo, tmp_path, "local"))


@pytest.mark.docker
@pytest.mark.slow
def test_netty_and_tomcat_answer_every_protocol_in_docker(tmp_path, repo):
    require(engine_problem())
    _check_every_protocol(_bench(repo, tmp_path, "docker"))
    left = subprocess.run(["docker", "ps", "-aq", "--filter", "label=com.docker.compose.project"],
                          capture_output=True, text=True, check=False).stdout.split()
    assert left == [], "containers were left behind"
