"""oha at a fixed rate against a server that freezes 200 ms every second: with latency
counted from when each request was due, the freezes must show in the high percentiles
(coordinated omission would hide them) while the median stays low."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator

import pytest

from httplab.loadtools.oha.command import OhaRequest, oha_arguments, oha_time_limit_s
from httplab.loadtools.oha.report import OhaReport, parse_oha_json
from httplab.paths import DEFAULT_REPO, oha_binary
from tests.support.stand_in import stand_in_url


def oha_executable() -> str | None:
    """The oha `make oha` built (make test builds it first), else the one on PATH."""
    return shutil.which(oha_binary(DEFAULT_REPO))


@pytest.fixture
def freezing_server_url() -> Iterator[str]:
    yield from stand_in_url("freezing_server.py", "--lifetime-s", "60")


@pytest.mark.alone  # a median under 5 ms
@pytest.mark.slow
@pytest.mark.skipif(oha_executable() is None, reason="needs oha: make oha")
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
