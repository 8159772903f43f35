from __future__ import annotations

import pytest

from httplab.loadtools.oha.command import OhaRequest, oha_arguments, oha_time_limit_s

URL = "http://127.0.0.1:8080/"


@pytest.mark.parametrize("request_, expected", [
    (OhaRequest(500, 3, 50, URL),
     ["--no-tui", "--output-format", "json", "-q", "500", "-z", "3s", "-c", "50",
      "--latency-correction", URL]),
    (OhaRequest(45000.0, 5, 100, URL),
     ["--no-tui", "--output-format", "json", "-q", "45000", "-z", "5s", "-c", "100",
      "--latency-correction", URL]),
    (OhaRequest(2.5, 10, 1, URL, latency_correction=False),
     ["--no-tui", "--output-format", "json", "-q", "2.5", "-z", "10s", "-c", "1", URL]),
    (OhaRequest(1e6, 1, 8, URL),
     ["--no-tui", "--output-format", "json", "-q", "1000000", "-z", "1s", "-c", "8",
      "--latency-correction", URL]),
])
def test_oha_arguments(request_, expected):
    assert oha_arguments(request_) == expected


def test_the_url_comes_last_and_the_rate_never_in_exponent_form():
    arguments = oha_arguments(OhaRequest(200_000, 3, 50, URL))
    assert arguments[-1] == URL
    assert arguments[arguments.index("-q") + 1] == "200000"


def test_time_limit_leaves_room_past_the_duration():
    assert oha_time_limit_s(OhaRequest(500, 5, 50, URL)) == 35
