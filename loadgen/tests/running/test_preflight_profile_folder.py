"""PROFILE=1 with BACKEND=local refuses, before any load and in one line, a results folder
whose path holds a comma: async-profiler splits its arguments at commas and there the JVM
writes each profile straight into raw/. In Docker it writes into the container's /tmp."""

from __future__ import annotations

import pytest

from httplab.commands.common import EXIT_USAGE
from httplab.commands.bench import bench
from httplab.commands.latency import latency
from httplab.running.backend_error import BackendError
from httplab.running.latency_plan import make_latency_plan
from httplab.running.plan import make_plan
from httplab.running.preflight import check_profile_folder, preflight

from tests.support.plans import plan_settings
from tests.running.test_preflight import CheckedBackend, _free_port, _on_port

REFUSED = r"^PROFILE=1 with BACKEND=local cannot write profiles under .*a,b.*: .*set PROFILE=0$"


class ProfilingBackend(CheckedBackend):
    name = "local"

    def check_profiler(self) -> None:
        self._check("profiler")

    def check_oha(self) -> None:
        self._check("oha")


def _plan(backend: str = "local", profile: str = "1"):
    return make_plan(plan_settings("alpha", "2", "10", "1s", backend=backend, profile=profile),
                     _on_port(_free_port()))


@pytest.mark.parametrize("backend, profile, folder, refused", [
    ("local", "1", "a,b/results", True),
    ("local", "0,1", "a,b/results", True),
    ("local", "1", "ab/results", False),
    ("local", "0", "a,b/results", False),  # no profile, no agent arguments
    ("docker", "1", "a,b/results", False),  # written in the container's /tmp, copied out
])
def test_a_comma_in_the_results_folder_is_refused_only_where_the_agent_writes_there(
        tmp_path, backend, profile, folder, refused):
    plan = _plan(backend, profile)
    if refused:
        with pytest.raises(BackendError, match=REFUSED):
            check_profile_folder(plan, tmp_path / folder)
    else:
        check_profile_folder(plan, tmp_path / folder)


def test_the_folder_is_judged_where_it_resolves(tmp_path):
    """The agent is given the resolved path: a comma behind a symbolic link counts."""
    (tmp_path / "a,b").mkdir()
    (tmp_path / "plain").symlink_to(tmp_path / "a,b")
    with pytest.raises(BackendError, match=REFUSED):
        check_profile_folder(_plan(), tmp_path / "plain" / "results")


def test_preflight_refuses_it_before_the_profiler_and_the_ports_are_checked(tmp_path):
    backend = ProfilingBackend()
    with pytest.raises(BackendError, match=REFUSED):
        preflight(_plan(), backend, tmp_path / "a,b" / "results")
    assert backend.asked == ["tools", "engines", "open files"]
    backend = ProfilingBackend()
    preflight(_plan(), backend, tmp_path / "results")
    assert backend.asked == ["tools", "engines", "open files", "profiler"]


def test_make_bench_stops_with_the_one_line_and_writes_nothing(tmp_path, capsys):
    results_root = tmp_path / "a,b" / "results"
    assert bench(_plan(), ProfilingBackend(), results_root, tmp_path / "image", tmp_path) \
        == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("httplab: error: PROFILE=1 with BACKEND=local cannot write")
    assert not (tmp_path / "a,b").exists()


def test_make_latency_stops_with_the_one_line_and_writes_nothing(tmp_path, capsys):
    plan = make_latency_plan({"servers": "alpha", "ceiling": "0", "backend": "local",
                              "profile": "1"}, _on_port(_free_port()))
    results_root = tmp_path / "a,b" / "results"
    assert latency(plan, ProfilingBackend(), results_root, tmp_path / "image", tmp_path) \
        == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("httplab: error: PROFILE=1 with BACKEND=local cannot write")
    assert not (tmp_path / "a,b").exists()
