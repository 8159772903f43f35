"""The one readiness rule: a correct answer AND the ready line, within one time limit."""

from __future__ import annotations

import re

import pytest

from httplab.running.backend_error import BackendError
from httplab.running.backends.local import LocalBackend
from httplab.manifest import parse_manifest
from httplab.paths import LUA_SCRIPT
from httplab.checking.readiness import Readiness, ServerProbes, not_ready_reason, wait_until_ready
from httplab.checking.ready_line import find_startup_line, parse_startup_line
from httplab.checking.conformance import verify_started

from tests.conftest import TESTS_DIR, free_port, port_is_listening

LINE = ("httplab-ready framework=X version=1 transport=epoll workers=2 observed_workers=2 "
        "bind=127.0.0.1:8080")


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def _probes(clock: FakeClock, answers_at: float | None, line_at: float | None,
            exits_at: float | None = None) -> ServerProbes:
    def at(moment: float | None) -> bool:
        return moment is not None and clock.now >= moment - 1e-9
    return ServerProbes(answers=lambda: at(answers_at),
                        output=lambda: f"starting\n{LINE}\n" if at(line_at) else "starting\n",
                        running=lambda: not at(exits_at))


@pytest.mark.parametrize("answers_at, line_at, exits_at, ready, first_answer, stopped, seconds", [
    (0.0, 0.0, None, True, 0.0, False, 0.0),         # both at once
    (0.0, 5.0, None, True, 0.0, False, 5.0),         # answers first, the line 5 s later
    (3.0, 1.0, None, True, 3.0, False, 3.0),         # the line first, then the answer
    (0.0, None, None, False, 0.0, False, 120.0),     # never prints the line
    (None, 0.0, None, False, None, False, 120.0),    # prints the line, never answers
    (None, None, 2.0, False, None, True, 2.0),       # exits before either
    (0.5, None, 4.0, False, 0.5, True, 4.0),         # answers, then dies without the line
])
def test_wait_until_ready(answers_at, line_at, exits_at, ready, first_answer, stopped, seconds):
    clock = FakeClock()
    readiness = wait_until_ready(_probes(clock, answers_at, line_at, exits_at), 120.0,
                                 clock, clock.sleep)
    assert readiness.ready is ready
    assert readiness.first_answer_s == (pytest.approx(first_answer) if first_answer is not None
                                        else None)
    assert readiness.stopped is stopped
    assert clock.now == pytest.approx(seconds, abs=0.11)


STARTUP = parse_startup_line(LINE)


@pytest.mark.parametrize("suffix, blocking_pool", [
    ("", None),  # the lines of older runs
    (" blocking_pool=0", 0),  # the reference
    (" blocking_pool=200", 200),
])
def test_the_ready_line_may_end_with_the_blocking_pool(suffix, blocking_pool):
    startup = parse_startup_line(LINE + suffix)
    assert (startup.workers, startup.bind, startup.blocking_pool) == \
        (2, "127.0.0.1:8080", blocking_pool)
    assert startup.line == LINE + suffix


@pytest.mark.parametrize("suffix", [" blocking_pool=", " blocking_pool=many",
                                    " blocking_pool=-1"])
def test_a_malformed_blocking_pool_is_no_ready_line(suffix):
    assert parse_startup_line(LINE + suffix) is None


@pytest.mark.parametrize("suffix, pools", [
    (" blocking_pool=200 db_pool=10", (200, 10)),
    (" blocking_pool=0 db_pool=0", (0, 0)),
    (" blocking_pool=20", (20, None)),  # lines before the database workloads
])
def test_the_ready_line_may_end_with_the_database_pool(suffix, pools):
    startup = parse_startup_line(LINE + suffix)
    assert (startup.blocking_pool, startup.db_pool) == pools


@pytest.mark.parametrize("suffix", [" blocking_pool=2 db_pool=", " blocking_pool=2 db_pool=x"])
def test_a_malformed_db_pool_is_no_ready_line(suffix):
    assert parse_startup_line(LINE + suffix) is None


def test_the_blocking_pool_is_read_from_a_line_amid_other_output():
    found = find_startup_line(f"starting\n12:00 INFO {LINE} blocking_pool=10\nrunning\n")
    assert found is not None and found.blocking_pool == 10


@pytest.mark.parametrize("readiness, expected", [
    (Readiness(STARTUP, 1.0), ""),
    (Readiness(None, 2.5), "answered correctly after 2.5 s but printed no httplab-ready line "
                           "within 120 s; last output lines:\nboot"),
    (Readiness(STARTUP, None), "printed its httplab-ready line but gave no correct answer to "
                               "GET / within 120 s; last output lines:\nboot"),
    (Readiness(None, None, True), "gave no correct answer to GET / and printed no "
                                  "httplab-ready line before it stopped (it exited with code 1); "
                                  "last output lines:\nboot"),
])
def test_not_ready_reason_says_what_was_missing_with_the_output_tail(readiness, expected):
    assert not_ready_reason(readiness, 120.0, "boot\n", " with code 1") == expected


def test_an_empty_output_is_said_to_be_empty():
    assert not_ready_reason(Readiness(None, None), 1.0, "").endswith("(no output)")


# The same rule with a real process and no JVM: the local backend runs a stand-in for java.
LATE_READY_SERVER = TESTS_DIR / "support" / "late_ready_server.py"
FAKE_MANIFEST = """display_name = "Fake"
framework = "Fake"
version = "1"
workers = 2
worker_kind = "event loops"
default_workers = "2 * cpus"
default_workers_source = "the test's own"
jdks = "17,21,25"
jdks_source = "the test's own"
executors = "pool,virtual"
executors_source = "the test's own"
blocking_pool = "workers"
blocking_pool_source = "the test's own"
blocking_pool_kind = "worker threads"
blocking_thread_prefix = "fake-worker-"
endpoints_source = "the test's own"
db_pool = 10
db_pool_source = "the test's own"
db_driver = "the test's own"
framework_packages = "httplab.test"
transports = "epoll,nio,io_uring"
transports_source = "the test's own"
server_header = "Fake"
port = {port}
path = "/"
"""


def _fake_backend(tmp_path, ready_timeout_s: float) -> tuple[LocalBackend, object]:
    manifest = parse_manifest("fake", FAKE_MANIFEST.format(port=free_port()))
    backend = LocalBackend(tmp_path, LUA_SCRIPT, java=str(LATE_READY_SERVER),
                           ready_timeout_s=ready_timeout_s)
    return backend, manifest


@pytest.mark.slow
def test_a_server_that_prints_its_ready_line_5_s_after_answering_passes(tmp_path, monkeypatch):
    monkeypatch.setenv("HTTPLAB_FAKE_READY_DELAY_S", "5")
    backend, manifest = _fake_backend(tmp_path, ready_timeout_s=60)
    log = tmp_path / "fake.log"
    with backend.serve(manifest, None, log) as started:
        verification = verify_started(started.startup, manifest, manifest.port)
        assert verification.passed, verification.summary()
        assert started.startup_seconds < 5, "the first answer came before the line"
    assert "fake server answering" in log.read_text() and "httplab-ready" in log.read_text()
    assert not port_is_listening(manifest.port)


@pytest.mark.slow
def test_a_server_that_never_prints_its_ready_line_fails_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("HTTPLAB_FAKE_READY_DELAY_S", "never")
    backend, manifest = _fake_backend(tmp_path, ready_timeout_s=3)
    log = tmp_path / "fake.log"
    with pytest.raises(BackendError) as failure:
        with backend.serve(manifest, None, log):
            pytest.fail("a server without its ready line must not count as ready")
    assert re.match(r"fake answered correctly after \d+\.\d s but printed no httplab-ready line "
                    r"within 3 s; last output lines:\nfake server answering", str(failure.value))
    assert "fake server answering" in log.read_text()
    assert not port_is_listening(manifest.port)
