"""done.lua run by the real wrk against a tiny server on 127.0.0.1 (1 s per run)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from httplab.wrk.done_json import parse_done_json
from httplab.wrk.text_report import parse_report

from tests.fake_server import FakeServer, hello_answer

DONE_LUA = Path(__file__).resolve().parent.parent / "done.lua"
WRK_TIME_LIMIT_S = 30


def run_wrk(port: int, json_path: str | None) -> subprocess.CompletedProcess[str]:
    wrk = shutil.which("wrk")
    assert wrk, "wrk is not installed"
    environment = {key: value for key, value in os.environ.items() if key != "HTTPLAB_WRK_JSON"}
    if json_path is not None:
        environment["HTTPLAB_WRK_JSON"] = json_path
    command = [wrk, "-t1", "-c2", "-d1s", "--latency", "-s", str(DONE_LUA), f"http://127.0.0.1:{port}/"]
    return subprocess.run(command, env=environment, capture_output=True, text=True, timeout=WRK_TIME_LIMIT_S)


class QuietServer(FakeServer):
    def handle_error(self, request, client_address) -> None:
        pass  # wrk resets its open connections when it stops: not worth a traceback


@pytest.fixture(scope="module")
def server():
    with QuietServer(hello_answer) as running:
        yield running


@pytest.mark.slow
def test_writes_one_json_object_that_agrees_with_the_report(server: FakeServer, tmp_path: Path) -> None:
    json_path = tmp_path / "run.json"
    finished = run_wrk(server.port, str(json_path))
    assert finished.returncode == 0, finished.stderr
    exact = parse_done_json(json_path.read_text(), str(json_path))
    printed = parse_report(finished.stdout, "wrk stdout")
    assert exact.requests == printed.requests > 0
    assert (exact.threads, exact.url) == (1, f"http://127.0.0.1:{server.port}/")
    assert exact.latency.min_us is not None and exact.latency.percentile(99.9) is not None


@pytest.mark.slow
def test_writes_nothing_without_the_variable(server: FakeServer, tmp_path: Path) -> None:
    finished = run_wrk(server.port, None)
    assert finished.returncode == 0, finished.stderr
    assert finished.stderr == ""
    assert parse_report(finished.stdout).requests > 0


@pytest.mark.slow
def test_unwritable_path_is_reported_without_failing_wrk(server: FakeServer, tmp_path: Path) -> None:
    finished = run_wrk(server.port, str(tmp_path / "missing-folder" / "run.json"))
    assert finished.returncode == 0
    assert "done.lua: cannot write HTTPLAB_WRK_JSON" in finished.stderr
    assert parse_report(finished.stdout).requests > 0
