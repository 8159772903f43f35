from __future__ import annotations

import pytest

from httplab.loadtools.h2load.measured_command import (H2loadRunRequest, h2load_run_arguments,
                                                       h2load_run_label,
                                                       h2load_run_time_limit_s)


def request(url: str = "https://127.0.0.1:8443/", streams: int = 1) -> H2loadRunRequest:
    return H2loadRunRequest(threads=10, connections=500, streams=streams, duration_s=10,
                            url=url, log_file="/out/netty@h2-t10-c500.h2load-requests.tsv")


@pytest.mark.parametrize("url, streams, expected", [
    ("https://127.0.0.1:8443/", 1,
     ["-t10", "-c500", "-m1", "-D10", "--log-file=/out/netty@h2-t10-c500.h2load-requests.tsv",
      "https://127.0.0.1:8443/"]),
    ("http://127.0.0.1:8080/json", 8,
     ["-t10", "-c500", "-m8", "-D10", "--log-file=/out/netty@h2-t10-c500.h2load-requests.tsv",
      "http://127.0.0.1:8080/json"]),
])
def test_the_arguments_state_threads_connections_streams_duration_and_the_log(url, streams,
                                                                             expected):
    assert h2load_run_arguments(request(url, streams)) == expected


def test_the_time_limit_leaves_room_past_the_duration():
    assert h2load_run_time_limit_s(request()) == 40


@pytest.mark.parametrize("streams, protocol, expected", [
    (1, "h2", "h2load -t10 -c500 -m1 -D10 (h2)"),
    (4, "h2c", "h2load -t10 -c500 -m4 -D10 (h2c)"),
])
def test_progress_names_the_tool_its_streams_and_the_protocol(streams, protocol, expected):
    assert h2load_run_label(request(streams=streams), protocol) == expected
