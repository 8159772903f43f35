"""The rules that let the suite run on several xdist workers (tests/support/shared_host.py):
the group of the shared_host tests, the lock an alone test takes, and the guard."""

from __future__ import annotations

import fcntl
import socket
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


def test_the_guard_names_a_port_that_opened_during_the_test(tmp_path):
    port = free_port()
    with shared_host.PortGuard(tmp_path, (port,)) as guard:
        with _listening_on(port):
            time.sleep(3 * shared_host.POLL_S)
    assert guard.opened == {port}


def test_the_guard_ignores_a_port_listening_before_the_test(tmp_path):
    port = free_port()
    with _listening_on(port), shared_host.PortGuard(tmp_path, (port,)) as guard:
        time.sleep(3 * shared_host.POLL_S)
    assert guard.opened == set()


def test_the_guard_ignores_a_port_a_shared_host_test_opens_on_another_worker(tmp_path):
    port = free_port()
    with open(shared_host.ports_lock(tmp_path), "a") as other_worker:
        fcntl.flock(other_worker, fcntl.LOCK_EX)
        with shared_host.PortGuard(tmp_path, (port,)) as guard, _listening_on(port):
            time.sleep(3 * shared_host.POLL_S)
    assert guard.opened == set()


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
