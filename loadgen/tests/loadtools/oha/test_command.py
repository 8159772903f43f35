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


BASE = ["--no-tui", "--output-format", "json", "-q", "500", "-z", "3s", "-c", "50",
        "--latency-correction"]
HTTPS = "https://127.0.0.1:8443/"


@pytest.mark.parametrize("request_, protocol_arguments", [
    (OhaRequest(500, 3, 50, URL), []),  # h1, as before
    (OhaRequest(500, 3, 50, HTTPS, ca_file="/run/tls/ca.pem"),
     ["--cacert", "/run/tls/ca.pem"]),  # h1-tls
    (OhaRequest(500, 3, 50, URL, http2=True), ["--http2", "-p", "1"]),  # h2c
    (OhaRequest(500, 3, 50, HTTPS, http2=True, streams=4, ca_file="/run/tls/ca.pem"),
     ["--http2", "-p", "4", "--cacert", "/run/tls/ca.pem"]),  # h2
    (OhaRequest(500, 3, 50, URL, keepalive=False), ["--disable-keepalive"]),
    (OhaRequest(500, 3, 50, HTTPS, ca_file="/ca.pem", keepalive=False),
     ["--cacert", "/ca.pem", "--disable-keepalive"]),
])
def test_each_protocol_its_arguments_before_the_url(request_, protocol_arguments):
    assert oha_arguments(request_) == [*BASE, *protocol_arguments, request_.url]


def test_never_insecure():
    for request_ in (OhaRequest(500, 3, 50, HTTPS), OhaRequest(500, 3, 50, HTTPS, http2=True)):
        assert "--insecure" not in oha_arguments(request_)


def test_keep_alive_cannot_be_disabled_over_http2():
    with pytest.raises(ValueError, match="oha cannot disable keep-alive over HTTP/2"):
        oha_arguments(OhaRequest(500, 3, 50, URL, http2=True, keepalive=False))
