"""The checks before any load that need the backend and the machine, in the order they run,
with a fake backend: no docker, no wrk."""

from __future__ import annotations

import socket
from dataclasses import replace

import pytest

from httplab.running.backend_error import BackendError
from httplab.running.plan import make_plan
from httplab.running.preflight import preflight

from tests.support.plans import KNOWN, plan_settings


class CheckedBackend:
    """Records each check it is asked for; fails the one named in failing."""

    def __init__(self, failing: str = "", open_files: int | None = None):
        self.failing, self.open_files, self.asked = failing, open_files, []

    def _check(self, name: str) -> None:
        self.asked.append(name)
        if name == self.failing:
            raise BackendError(f"{name} failed")

    def check_available(self) -> None:
        self._check("tools")

    def check_engines(self) -> None:
        self._check("engines")

    def check_fairness_tools(self) -> None:
        self._check("fairness tools")

    def check_h2load(self) -> None:
        self._check("h2load")

    def open_file_limit(self) -> int | None:
        self.asked.append("open files")
        return self.open_files


def _on_port(port: int):
    return (replace(KNOWN[0], port=port),)


def _free_port() -> int:
    """A port nothing listens on (not the manifests' 8080, which a server here may hold)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _plan(**settings: str):
    return make_plan(plan_settings(**settings), _on_port(_free_port()))


def test_every_check_runs_in_order_and_fairness_tools_only_with_fairness():
    backend = CheckedBackend()
    preflight(_plan(fairness="1"), backend)
    assert backend.asked == ["tools", "engines", "fairness tools", "open files"]
    backend = CheckedBackend()
    preflight(_plan(), backend)
    assert backend.asked == ["tools", "engines", "open files"]


@pytest.mark.parametrize("protocol, asked", [
    ("h1,h1-tls", ["tools", "engines", "open files"]),
    ("h1,h2c", ["tools", "engines", "h2load", "open files"]),
    ("h2", ["tools", "engines", "h2load", "open files"]),
])
def test_h2load_is_checked_only_when_a_server_speaks_http2(protocol, asked):
    serves_all = replace(KNOWN[0], port=_free_port(), protocols=("h1", "h1-tls", "h2c", "h2"),
                         protocols_source="the test's own")
    backend = CheckedBackend()
    preflight(make_plan(plan_settings(protocol=protocol), (serves_all,)), backend)
    assert backend.asked == asked


def test_the_first_failing_check_stops_the_rest():
    backend = CheckedBackend(failing="engines")
    with pytest.raises(BackendError, match="engines failed"):
        preflight(_plan(fairness="1"), backend)
    assert backend.asked == ["tools", "engines"]


def test_too_many_connections_for_the_open_file_limit_are_refused():
    with pytest.raises(BackendError, match="CONNECTIONS 500 needs about 756 open files"):
        preflight(_plan(), CheckedBackend(open_files=600))


def test_a_busy_port_here_is_refused_and_one_on_another_machine_is_not_probed():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        here = make_plan(plan_settings(), _on_port(port))
        with pytest.raises(BackendError, match=f"port {port} on 127.0.0.1 is already in use"):
            preflight(here, CheckedBackend())
        elsewhere = make_plan(plan_settings(server_host="ssh://root@10.9.0.2"), _on_port(port))
        preflight(elsewhere, CheckedBackend())
