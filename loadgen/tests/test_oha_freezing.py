"""oha at a fixed rate against a server that freezes 200 ms every second: with latency
counted from when each request was due, the freezes must show in the high percentiles
(coordinated omission would hide them) while the median stays low."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from httplab.loadtools.oha.command import OhaRequest, oha_arguments, oha_time_limit_s
from httplab.loadtools.oha.report import OhaReport, parse_oha_json

FREEZING_SERVER = Path(__file__).parent / "support" / "freezing_server.py"
PINNED_OHA = Path("/opt/oha/bin/oha")


def oha_executable() -> str | None:
    return str(PINNED_OHA) if PINNED_OHA.is_file() else shutil.which("oha")


@pytest.fixture
def freezing_server_url() -> Iterator[str]:
    server = subprocess.Popen([sys.executable, str(FREEZING_SERVER), "--lifetime-s", "60"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        assert line.startswith("listening on 127.0.0.1:"), line
        yield f"http://{line.removeprefix('listening on ')}/"
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.slow
@pytest.mark.skipif(oha_executable() is None, reason="needs oha (/opt/oha/bin/oha or on PATH)")
def test_freezes_show_in_the_high_percentiles_not_the_median(freezing_server_url):
    request = OhaRequest(rate_per_s=500, duration_s=3, connections=50, url=freezing_server_url)
    run = subprocess.run([oha_executable(), *oha_arguments(request)], capture_output=True,
                         text=True, timeout=oha_time_limit_s(request), check=True)
    report = parse_oha_json(run.stdout, request.rate_per_s, "oha against freezing_server")
    assert report.failed == 0 and report.non_2xx_3xx == 0
    assert report.answered >= 1000
    assert report.percentile_us(90) >= 80_000
    assert report.percentile_us(99) >= 150_000
    assert report.percentile_us(50) < 5_000
    assert answers_slower_than_a_bin(report) >= 200


def answers_slower_than_a_bin(report: OhaReport) -> int:
    """Answers past oha's first ~20 ms bin. Every request due during a pause waits: about
    90 a pause over 20 ms with the correction. Without it only the 50 in flight on the 50
    connections count their wait (150 in all) though p90 and p99 come out the same."""
    first_bin_us = report.histogram_us[1][0]
    return sum(count for edge_us, count in report.histogram_us if edge_us > first_bin_us)
