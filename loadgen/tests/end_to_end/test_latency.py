"""make latency end to end against stand-in servers (no JVM), through the lab's own command
and results: latency counts from each request's due time, and the search finds the knee of
a server whose capacity is known. Load goes to 127.0.0.1 only, for a few seconds a step.
Slow; skipped when oha is not built (make oha)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from httplab.cli import main
from httplab.paths import DEFAULT_REPO, oha_binary
from httplab.run_layout import LATEST, RESULTS_JSON, RESULTS_MD
from tests.support.stand_in import stand_in_url

# latencies and a knee that another test's load would move
pytestmark = [pytest.mark.alone, pytest.mark.slow,
              pytest.mark.skipif(shutil.which(oha_binary(DEFAULT_REPO)) is None,
                                 reason="oha is not built: make oha")]


@pytest.fixture
def freezing_url() -> Iterator[str]:
    yield from stand_in_url("freezing_server.py", "--lifetime-s", "60")


@pytest.fixture
def queue_url() -> Iterator[str]:
    yield from stand_in_url("queue_server.py", "--service-ms", str(1000 / CAPACITY),
                       "--lifetime-s", "300")


CAPACITY = 500.0  # the queue server's requests a second: its service time is 2 ms


def run_latency(url: str, results: Path, *settings: str) -> dict:
    code = main(["--repo", str(DEFAULT_REPO), "latency", "--backend", "local", "--url", url,
                 "--step-warmup", "0", "--results-dir", str(results),
                 "--image", str(results / "chart.png"), *settings])
    assert code == 0
    return json.loads((results / LATEST / RESULTS_JSON).read_text())


def test_the_freezes_show_in_p90_and_p99_but_not_in_p50(freezing_url, tmp_path):
    document = run_latency(freezing_url, tmp_path, "--rates", "500", "--duration", "3s")
    # A step the host decided (a stall on a CPU it used) is run again; the last one counts.
    *host_judged, step = document["latency"]["steps"]
    assert all(judged["verdict"] == "host" for judged in host_judged)
    percentiles = step["latency_us"]["percentiles"]
    assert percentiles["p50"] < 5_000
    assert percentiles["p90"] >= 80_000
    assert percentiles["p99"] >= 150_000
    assert step["verdict"] == "p99"
    assert "p99" in (tmp_path / LATEST / RESULTS_MD).read_text()


def test_the_search_finds_the_knee_of_a_server_of_known_capacity(queue_url, tmp_path):
    # 200 ms: room below the knee for this host's stalls (a stall of 70 ms now and then
    # was seen at half the capacity); above it the queue grows by the overload: at 5 % over,
    # 25 requests of 2 ms a second, past 200 ms before the last percent of a 5 s step.
    document = run_latency(queue_url, tmp_path, "--duration", "5s", "--slo-p99", "200ms")
    (maximum,) = document["latency"]["maxima"]
    assert not maximum["limited_by_tool"]
    assert 0.85 * CAPACITY <= maximum["value"] <= 1.15 * CAPACITY, document["latency"]["steps"]


def test_a_users_server_gets_no_servers_table(freezing_url, tmp_path):
    run_latency(freezing_url, tmp_path, "--rates", "200", "--duration", "1s")
    markdown = (tmp_path / LATEST / RESULTS_MD).read_text()
    assert "Servers as run" not in markdown and "not started, checked or sampled" in markdown
