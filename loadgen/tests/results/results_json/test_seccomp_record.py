"""Each server's seccomp profile (format 15) through results.json: written, read back, and
absent (None) in an older file's server."""

from __future__ import annotations

from dataclasses import replace

from httplab.results.results_json.read import server_from_dict
from httplab.results.results_json.write import server_to_dict

from tests.sample_results import sample_result


def test_the_profile_a_server_ran_under_round_trips_and_an_older_one_has_none():
    server = sample_result().servers[0]
    for seccomp in ("default", "io_uring.json", None):
        ran = replace(server, seccomp=seccomp)
        assert server_to_dict(ran)["seccomp"] == seccomp
        assert server_from_dict(server_to_dict(ran)) == ran
    older = {key: value for key, value in server_to_dict(server).items() if key != "seccomp"}
    assert server_from_dict(older).seccomp is None
