"""The rules that let the suite run on several xdist workers (tests/support/shared_host.py):
the group of the shared_host tests, the lock an alone test takes, and the guard."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time

import pytest

from tests.conftest import free_port
from tests.support import shared_host


class FakeItem:
    def __init__(self, *marks: str):
        self.marks = [getattr(pytest.mark, name) for name in marks]

    def get_closest_marker(self, name):
        return next((mark for mark in self.marks if mark.name == name), None)

    def add_marker(self, mark):
        self.marks.append(getattr(pytest.mark, mark) if isinstance(mark, str) else mark)

    def groups(self) -> list:
        return [mark.args for mark in self.marks if mark.name == "xdist_group"]


def test_docker_and_shared_host_tests_share_one_group_and_the_others_have_none():
    docker, shared, plain, alone = (FakeItem("docker"), FakeItem("shared_host"), FakeItem(),
                                    FakeItem("alone"))
    shared_host.mark_groups([docker, shared, plain, alone])
    assert docker.groups() == shared.groups() == [(shared_host.GROUP,)]
    assert docker.get_closest_marker("shared_host") is not None
    assert plain.groups() == alone.groups() == []


def test_the_lab_fixes_the_servers_port_and_the_databases():
    assert {8080, 15432} <= set(shared_host.FIXED_PORTS)


def _listening_on(port: int) -> socket.socket:
    listener = socket.socket()
    listener.bind(("127.0.0.1", port))
    listener.listen()
    return listener


def test_the_guard_names_a_port_the_test_listened_on():
    port = free_port()
    with shared_host.PortGuard((port,)) as guard:
        with _listening_on(port):
            _within(10, lambda: guard.opened)
    assert guard.opened == {port}


def test_the_guard_names_a_port_a_process_the_test_started_listened_on():
    port = free_port()
    with shared_host.PortGuard((port,)) as guard, _listener(port):
        _within(10, lambda: guard.opened)
    assert guard.opened == {port}


def test_the_guard_leaves_out_a_port_another_program_listens_on():
    """A listener that is no descendant of this process (setsid -f forks it away), as a
    bench running beside the tests would be."""
    port = free_port()
    with _listener(port, "setsid", "-f"), shared_host.PortGuard((port,)) as guard:
        time.sleep(3 * shared_host.POLL_S)
    assert guard.opened == set()


@contextlib.contextmanager
def _listener(port: int, *launcher: str):
    """A Python process listening on the port for at most 5 s, started through `launcher`."""
    script = (f"import socket, time; s = socket.socket(); s.bind(('127.0.0.1', {port})); "
              "s.listen(); time.sleep(5)")
    process = subprocess.Popen([*launcher, sys.executable, "-c", script])
    try:
        assert _within(5, lambda: shared_host.listening(port)), "the listener never listened"
        yield
    finally:
        process.kill()
        process.wait()
        assert _within(10, lambda: not shared_host.listening(port)), "the listener never left"


def _within(seconds: float, condition) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_an_alone_test_waits_for_the_test_running_beside_it(tmp_path):
    started = threading.Event()
    with shared_host.turn(tmp_path, FakeItem()):
        alone = threading.Thread(target=_run_alone, args=(tmp_path, started))
        alone.start()
        assert not started.wait(0.5), "the alone test started beside another"
    assert started.wait(5), "the alone test never started"
    alone.join()


def test_tests_beside_each_other_do_not_wait(tmp_path):
    started = threading.Event()
    with shared_host.turn(tmp_path, FakeItem()):
        beside = threading.Thread(target=_run_alone, args=(tmp_path, started, FakeItem()))
        beside.start()
        assert started.wait(5), "two tests did not run beside each other"
    beside.join()


def _run_alone(folder, started: threading.Event, item: FakeItem | None = None) -> None:
    with shared_host.turn(folder, item or FakeItem("alone")):
        started.set()


def test_the_probes_record_a_fixed_port_the_harness_checks_and_no_other(monkeypatch):
    from httplab.running.backends import base
    from httplab.running.database import support
    servers, database = free_port(), free_port()  # stand-ins for the lab's fixed ports
    probes = shared_host.PortProbes(monkeypatch, (servers, database))
    base.port_in_use(servers)
    assert probes.asked == {servers}
    support.port_in_use(database)
    base.port_in_use(free_port())
    assert probes.asked == {servers, database}
