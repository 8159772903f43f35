"""What lets the suite run on several pytest-xdist workers (`make test`: -n auto --dist
loadgroup) on one host:
- `shared_host` tests bind a port the lab fixes (the servers' port of the manifests, the
  database's DB_PORT, or a fixed port of the test's own) or use Docker's fixed names
  (every `docker` test is one): they all go in one xdist group, which runs on one worker,
  one test after the other;
- an `alone` test measures CPU or latency that another test's load would skew: no other
  test runs while it does (the workers share a readers-writer lock: every test takes it
  shared, an `alone` test exclusively, through a gate so it is not starved);
- the guard: a test not marked shared_host during which one of the lab's fixed ports
  listens through the test's own process or one it started, or that has the harness
  check one is free (port_in_use, before a server or database starts), fails, naming
  the port (another program's listener, such as a bench beside the tests, is none of its
  doing; a container the test started is not seen).
Without xdist the lock is not taken; the guard still watches."""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.running.database.base import DB_PORT
from tests.support.port_owners import listened_on_by_descendant

SHARED_HOST, ALONE, DOCKER = "shared_host", "alone", "docker"
GROUP = "shared-host"  # the xdist group of every shared_host test
# The ports the lab itself fixes, which the guard watches.
FIXED_PORTS = tuple(sorted({m.port for m in discover(servers_dir(DEFAULT_REPO))} | {DB_PORT}))
POLL_S = 0.2
# The modules whose free-port check (their name port_in_use) the guard records.
PROBING_MODULES = ("httplab.running.backends.base", "httplab.running.database.support")


def mark_groups(items: list[pytest.Item]) -> None:
    """Every shared_host test, and every docker one, in the one xdist group."""
    for item in items:
        if item.get_closest_marker(DOCKER) and not item.get_closest_marker(SHARED_HOST):
            item.add_marker(SHARED_HOST)
        if item.get_closest_marker(SHARED_HOST):
            item.add_marker(pytest.mark.xdist_group(GROUP))


def lock_dir(config: pytest.Config) -> Path | None:
    """A folder every worker of this run shares (the parent of each worker's basetemp, which
    xdist sets); None without xdist."""
    basetemp = config.getoption("basetemp")
    if not os.environ.get("PYTEST_XDIST_WORKER") or not basetemp:
        return None
    return Path(basetemp).parent


@contextlib.contextmanager
def _flocked(path: Path, operation: int) -> Iterator[None]:
    with open(path, "a") as handle:
        fcntl.flock(handle, operation)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextlib.contextmanager
def turn(folder: Path | None, item: pytest.Item) -> Iterator[None]:
    """Holds the run's room for the item: shared, or exclusive for an alone test."""
    if folder is None:
        yield
        return
    alone = item.get_closest_marker(ALONE) is not None
    with contextlib.ExitStack() as held:
        with _flocked(folder / "gate.lock", fcntl.LOCK_EX):
            held.enter_context(_flocked(folder / "room.lock",
                                        fcntl.LOCK_EX if alone else fcntl.LOCK_SH))
        yield


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


class PortGuard:
    """Watches the fixed ports during one test: those that listen through this process
    or one it started."""

    def __init__(self, ports: tuple[int, ...] = FIXED_PORTS):
        self.ports = ports
        self.opened: set[int] = set()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while True:
            for port in self.ports:
                if (port not in self.opened and listening(port)
                        and listened_on_by_descendant(port, os.getpid())):
                    self.opened.add(port)
            if self._done.wait(POLL_S):
                return

    def __enter__(self) -> PortGuard:
        self._thread.start()
        return self

    def __exit__(self, *_) -> None:
        self._done.set()
        self._thread.join()


class PortProbes:
    """Records the fixed ports the harness checks are free during one test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, ports: tuple[int, ...] = FIXED_PORTS):
        self.ports, self.asked = ports, set()
        for name in PROBING_MODULES:
            module = importlib.import_module(name)
            monkeypatch.setattr(module, "port_in_use", self._recording(module.port_in_use))

    def _recording(self, port_in_use):
        def recorded(port: int, *args, **kwargs) -> bool:
            if port in self.ports:
                self.asked.add(port)
            return port_in_use(port, *args, **kwargs)
        return recorded
