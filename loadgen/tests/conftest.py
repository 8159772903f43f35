from __future__ import annotations

import socket
from pathlib import Path

import pytest

from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir

TESTS_DIR = Path(__file__).resolve().parent
FIXTURES = TESTS_DIR / "fixtures"


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
