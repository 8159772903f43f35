from __future__ import annotations

import socket
from pathlib import Path

import pytest

from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir
from tests.support import shared_host

TESTS_DIR = Path(__file__).resolve().parent
FIXTURES = TESTS_DIR / "fixtures"


@pytest.hookimpl(tryfirst=True)  # before xdist's loadgroup reads the groups
def pytest_collection_modifyitems(items):
    shared_host.mark_groups(items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    with shared_host.turn(shared_host.lock_dir(item.config), item):
        yield


@pytest.fixture(autouse=True)
def fixed_ports_guard(request, monkeypatch):
    """Fails a test not marked shared_host that listened on a fixed port of the lab, or had
    the harness check one is free."""
    if request.node.get_closest_marker(shared_host.SHARED_HOST):
        yield
        return
    probes = shared_host.PortProbes(monkeypatch)
    with shared_host.PortGuard() as guard:
        yield
    if guard.opened or probes.asked:
        ports = ", ".join(str(port) for port in sorted(guard.opened | probes.asked))
        pytest.fail(f"{request.node.nodeid} listened on or checked {ports}, a port the lab "
                    f"fixes: mark it @pytest.mark.{shared_host.SHARED_HOST}")


@pytest.fixture(scope="session")
def repo() -> Path:
    return DEFAULT_REPO


@pytest.fixture(scope="session")
def manifests():
    return discover(servers_dir(DEFAULT_REPO))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_is_listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def run_until_exit(command: list[str], env: dict[str, str], wait_s: float) -> tuple[int | None, str]:
    """Starts a server process that should stop by itself (a bad setting, a busy port):
    its exit code (None if it still ran after wait_s) and everything it printed."""
    from httplab.running.process import ServerProcess

    process = ServerProcess(command, env)
    try:
        process.wait_ready(wait_s)
        return process.exit_code(), process.output()
    finally:
        process.stop()
