"""Checks of a server on another Docker engine: the Verification as JSON both ways, the
check's --json output, the command lines and their readers, the ready line joined with a
Verification from elsewhere; and (docker-marked) the real conformance check run in the
wrk image and the answer probe run in a Netty container, both on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from httplab.checking import conformance_cli
from httplab.checking.conformance import CheckResult, Verification, with_ready_line
from httplab.checking.readiness import answers_correctly
from httplab.checking.verification_json import verification_from_dict, verification_to_dict
from httplab.manifest import parse_manifest
from httplab.model import Workload
from httplab.running.backends.remote_checks import (ANSWER_PROBE_TIMEOUT_S,
                                                    CONFORMANCE_MODULE, CONFORMANCE_TIMEOUT_S,
                                                    WRK_IMAGE,
                                                    RemoteCheckError, answer_probe_command,
                                                    conformance_command,
                                                    verification_from_output)

from tests.conftest import TESTS_DIR, free_port
from tests.docker_support import (default_server_image, engine_problem, first_present_image,
                                  require)
from tests.fake_server import FakeServer, hello_answer
from tests.support.plans import MANIFEST

LOADGEN = TESTS_DIR.parent
NETTY_IMAGE = default_server_image("netty")
MIXED = Verification((CheckResult("GET /", True), CheckResult("Date refreshed", False,
                                                               "Date stayed 'x' over 1.2 s")))


WITH_WORKLOADS = Verification((CheckResult("GET /", True),
                               CheckResult("GET /json", False, "status 404", "json"),
                               CheckResult("GET /delay?ms=10 answered after 10 to 260 ms", True,
                                           "", "delay-10ms")))


@pytest.mark.parametrize("verification", [
    MIXED,
    Verification((CheckResult("GET /", True, ""),)),
    Verification((CheckResult("ünïcode \"quoted\"", False, "line\nbreak"),)),
    WITH_WORKLOADS,
], ids=["one failed", "all passed", "odd text", "workloads' checks"])
def test_a_verification_survives_json_both_ways(verification):
    as_text = json.dumps(verification_to_dict(verification))
    assert verification_from_dict(json.loads(as_text)) == verification


@pytest.mark.parametrize("data, message", [
    ([], "not a verification"),
    ({"checks": "GET /"}, "not a verification"),
    ({"checks": []}, "without checks"),
    ({"checks": ["GET /"]}, "check 1 is not an object"),
    ({"checks": [{"name": "GET /", "passed": "yes"}]}, "check 1 needs"),
    ({"checks": [{"passed": True}]}, "check 1 needs"),
    ({"passed": True, "checks": [{"name": "GET /", "passed": False}]}, "says passed=True"),
    ({"checks": [{"name": "GET /json", "passed": True, "workload": 3}]},
     "check 1: workload 3 is not a workload's key"),
    ({"checks": [{"name": "GET /json", "passed": True, "workload": ""}]},
     "check 1: workload '' is not a workload's key"),
], ids=["a list", "checks not a list", "no checks", "check not an object", "passed not a bool",
        "no name", "passed contradicts the checks", "workload not text", "workload empty"])
def test_a_dict_that_is_no_verification_is_a_value_error_saying_why(data, message):
    with pytest.raises(ValueError, match=message):
        verification_from_dict(data)


def test_a_common_check_has_no_workload_field_and_old_json_reads_as_common_checks():
    written = verification_to_dict(WITH_WORKLOADS)
    assert [check.get("workload") for check in written["checks"]] == [None, "json", "delay-10ms"]
    assert "workload" not in written["checks"][0]
    old = {"passed": True, "checks": [{"name": "GET /", "passed": True, "detail": ""}]}
    assert verification_from_dict(old) == Verification((CheckResult("GET /", True),))
    assert written["passed"] is True, "passed is the common checks' verdict"


def test_the_check_prints_one_json_object_for_the_harness(capsys):
    with FakeServer(hello_answer) as server:
        code = conformance_cli.main(["--host", "127.0.0.1", "--port", str(server.port),
                                 "--server-header", "Fake", "--json"])
    printed = capsys.readouterr().out
    assert code == 0 and printed.count("\n") == 1
    verification = verification_from_output(printed)
    assert verification.passed and len(verification.checks) >= 9


def test_a_failed_check_still_prints_its_json_and_exits_1(capsys):
    code = conformance_cli.main(["--port", str(free_port()), "--server-header", "Fake", "--json"])
    verification = verification_from_output(capsys.readouterr().out)
    assert code == 1 and not verification.passed
    assert "ConnectionRefusedError" in verification.failures[0].detail


def test_the_check_needs_the_stdlib_only():
    """The wrk image has Python's stdlib and no more: no site-packages, no venv."""
    probe = ("import sys\nsys.path.insert(0, sys.argv[1])\n"
             "import httplab.checking.conformance_cli\n"
             "print(' '.join(sorted({m.split('.')[0] for m in sys.modules}"
             " - set(sys.stdlib_module_names))))")
    loaded = subprocess.run([sys.executable, "-S", "-c", probe, str(LOADGEN)],
                            capture_output=True, text=True, timeout=60, check=True)
    assert loaded.stdout.split() == ["__main__", "httplab"], loaded.stdout


def test_the_conformance_command_runs_the_check_in_the_wrk_image_on_the_host_network():
    assert conformance_command("10.0.0.7", 8081, "Netty") == [
        "docker", "run", "--rm", "--network", "host", "--entrypoint", "python3", WRK_IMAGE,
        "-m", "httplab.checking.conformance_cli", "--host", "10.0.0.7", "--port", "8081",
        "--server-header", "Netty", "--json"]


@pytest.mark.parametrize("workloads, added", [
    ((), []),
    ((Workload(),), []),  # plaintext's checks are the common ones
    ((Workload(), Workload("json"), Workload("blocking", 10), Workload("json")),
     ["--workloads", "json,blocking-10ms"]),
])
def test_the_conformance_command_passes_the_workloads_keys(workloads, added):
    command = conformance_command("10.0.0.7", 8081, "Netty", workloads=workloads)
    assert command[-1] == "--json" and command[-1 - len(added):-1] == added
    assert len(command) == len(conformance_command("10.0.0.7", 8081, "Netty")) + len(added)


def test_the_conformance_command_asks_for_the_kind_of_thread_blocking_waits_on():
    command = conformance_command("10.0.0.7", 8081, "Netty", blocking_thread="virtual")
    assert command[-3:] == ["--blocking-thread", "virtual", "--json"]


def test_a_remote_check_of_workloads_reads_back_which_failed(capsys):
    with FakeServer(hello_answer) as server:  # no /json: its check fails, the server passes
        command = conformance_command("127.0.0.1", server.port, "Fake",
                                      workloads=(Workload("json"),))
        code = conformance_cli.main(command[command.index(CONFORMANCE_MODULE) + 1:])
    verification = verification_from_output(capsys.readouterr().out)
    assert code == 1 and verification.passed
    assert list(verification.failed_workloads()) == ["json"]


def test_the_checks_output_reads_back_from_its_last_line():
    printed = "some warning\n" + json.dumps(verification_to_dict(MIXED)) + "\n"
    assert verification_from_output(printed) == MIXED


@pytest.mark.parametrize("stdout, stderr, message", [
    ("", "Unable to find image 'httplab/wrk:latest' locally",
     r"printed nothing\); its output: Unable to find image"),
    ("Traceback (most recent call last):\nModuleNotFoundError: No module named 'json'\n", "",
     "(?s)gave no result .*No module named 'json'"),
    ('{"checks": []}\n', "", "without checks"),
], ids=["no output", "a traceback", "json but no verification"])
def test_output_without_a_verification_is_a_clear_error(stdout, stderr, message):
    with pytest.raises(RemoteCheckError, match=message):
        verification_from_output(stdout, stderr)


def test_the_answer_probe_passes_address_and_port_as_arguments_to_bash():
    command = answer_probe_command("c0ffee", "192.168.1.20", 8080)
    assert command[:5] == ["docker", "exec", "c0ffee", "bash", "-c"]
    assert command[-2:] == ["192.168.1.20", "8080"]
    assert "/dev/tcp/$1/$2" in command[5]


def test_the_answer_probe_script_exits_0_only_on_a_200():
    """The script itself, run by this host's bash against fake servers."""
    script = answer_probe_command("c", "127.0.0.1", 1)[5]

    def probe(port: int) -> int:
        return subprocess.run(["bash", "-c", script, "probe", "127.0.0.1", str(port)],
                              capture_output=True, timeout=ANSWER_PROBE_TIMEOUT_S).returncode
    with FakeServer(hello_answer) as right:
        assert probe(right.port) == 0
    with FakeServer(lambda request: hello_answer(request).replace(b" 200 OK", b" 503 No")) as busy:
        assert probe(busy.port) != 0
    assert probe(free_port()) != 0


def test_the_ready_line_joins_a_verification_from_elsewhere():
    manifest = parse_manifest("x", MANIFEST)
    joined = with_ready_line(MIXED, None, manifest)
    assert [check.name for check in joined.checks] == ["ready line", "GET /", "Date refreshed"]
    assert "no httplab-ready line" in joined.checks[0].detail
    assert joined.checks[1:] == MIXED.checks


# --- In Docker: a Netty container on 127.0.0.1 ----------------------------------------------

@contextmanager
def running_netty() -> Iterator[tuple[str, int]]:
    """A Netty container on the host network, bound to 127.0.0.1 at a free port (not 8080,
    which the lab's own runs may hold); its id and port, once it answers."""
    require(engine_problem())
    require(None if first_present_image(NETTY_IMAGE) else f"{NETTY_IMAGE} is missing: make bench builds it")
    port = free_port()
    started = subprocess.run(["docker", "run", "-d", "--rm", "--network", "host",
                              "-e", "BIND_ADDRESS=127.0.0.1", "-e", f"PORT={port}",
                              "--name", f"httplab-test-netty-{os.getpid()}-{port}", NETTY_IMAGE],
                             capture_output=True, text=True, timeout=60, check=True)
    container = started.stdout.strip()
    try:
        deadline = time.monotonic() + 60
        while not answers_correctly("127.0.0.1", port, "Netty"):
            assert time.monotonic() < deadline, "Netty gave no right answer within 60 s"
            time.sleep(0.2)
        yield container, port
    finally:
        subprocess.run(["docker", "rm", "-f", container], capture_output=True, timeout=60)


def _require_python_in_wrk_image() -> None:
    found = subprocess.run(["docker", "run", "--rm", "--network", "none", "--entrypoint",
                            "python3", WRK_IMAGE, "--version"], capture_output=True, timeout=60)
    require(None if found.returncode == 0 else
            f"{WRK_IMAGE} has no python3: rebuild it (docker compose build wrk)")


@pytest.mark.docker
@pytest.mark.slow
def test_the_conformance_command_passes_netty_and_the_answer_probe_sees_it():
    with running_netty() as (container, port):
        _require_python_in_wrk_image()
        checked = subprocess.run(conformance_command("127.0.0.1", port, "Netty"),
                                 env=dict(os.environ), capture_output=True, text=True,
                                 timeout=CONFORMANCE_TIMEOUT_S)
        verification = verification_from_output(checked.stdout, checked.stderr)
        answered = subprocess.run(answer_probe_command(container, "127.0.0.1", port),
                                  capture_output=True, text=True, timeout=ANSWER_PROBE_TIMEOUT_S)
        refused = subprocess.run(answer_probe_command(container, "127.0.0.1", free_port()),
                                 capture_output=True, text=True, timeout=ANSWER_PROBE_TIMEOUT_S)
    assert verification.passed, verification.summary()
    assert checked.returncode == 0 and len(verification.checks) >= 9
    assert answered.returncode == 0, answered.stderr
    assert refused.returncode != 0
