"""The conformance check's command line (run in the wrk image for a server on another
host): the workload keys it takes, what it prints and how it exits."""

import pytest

from httplab.checking.conformance_cli import main, workloads_argument
from httplab.model import Workload
from tests.fake_server import FakeServer, endpoints_answer, hello_answer
from tests.checking.test_conformance import BLOCKING, DELAY, JSON


@pytest.mark.parametrize("keys, workloads", [
    ("json,delay-20ms", (JSON, DELAY)), ("plaintext", (Workload(),)),
    (" blocking-20ms , json ", (BLOCKING, JSON)), ("", ()),
])
def test_workload_keys_name_the_workloads_to_check(keys, workloads):
    assert workloads_argument(keys) == workloads


@pytest.mark.parametrize("keys", ["delay", "json,sleep-1ms", "delay-0ms", "blocking-10001ms"])
def test_the_cli_refuses_what_is_no_workload_key(keys, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--server-header", "Fake", "--workloads", keys])
    assert exit_.value.code == 2 and "is not a workload key" in capsys.readouterr().err


@pytest.mark.alone  # answers timed against WAIT_SLACK_MS
def test_the_cli_checks_the_workloads_it_is_given(capsys):
    with FakeServer(endpoints_answer) as server:
        code = main(["--port", str(server.port), "--server-header", "Fake",
                     "--workloads", "json,delay-20ms"])
    printed = capsys.readouterr().out
    assert code == 0 and "ok   [json] GET /json" in printed and "[delay-20ms] GET /delay" in printed


def test_the_cli_exits_1_when_only_a_workloads_check_failed(capsys):
    with FakeServer(hello_answer) as server:
        code = main(["--port", str(server.port), "--server-header", "Fake", "--workloads", "json"])
    assert code == 1 and "FAIL [json] GET /json status 404" in capsys.readouterr().out


def test_the_cli_checks_the_kind_of_thread_blocking_waited_on(capsys):
    with FakeServer(endpoints_answer) as server:  # its /blocking says platform
        code = main(["--port", str(server.port), "--server-header", "Fake",
                     "--workloads", "blocking-20ms", "--blocking-thread", "virtual"])
    printed = capsys.readouterr().out
    assert code == 1
    assert "FAIL [blocking-20ms] GET /blocking?ms=20 waited on a virtual thread" in printed
