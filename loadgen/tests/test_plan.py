import pytest

from httplab.manifest import parse_manifest
from httplab.plan import PlanError, make_plan, parse_duration, parse_positive_list

MANIFEST = """display_name = "X"
framework = "X"
version = "1"
workers = "cpus"
worker_kind = "event loops"
transport = "epoll"
server_header = "X"
port = 8080
path = "/"
"""
KNOWN = (parse_manifest("alpha", MANIFEST), parse_manifest("beta", MANIFEST))


@pytest.mark.parametrize("text, expected", [
    ("10s", ("10s", 10)), ("10", ("10s", 10)), ("2m", ("2m", 120)), ("1h", ("1h", 3600)),
    (" 3s ", ("3s", 3)),
])
def test_durations(text, expected):
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "0s", "-1s", "10x", "1.5s", "s", "10 s"])
def test_bad_durations(text):
    with pytest.raises(PlanError, match="DURATION"):
        parse_duration(text)


@pytest.mark.parametrize("text, expected", [("10,5", (10, 5)), ("2", (2,)), (" 1 , 2 ", (1, 2))])
def test_lists(text, expected):
    assert parse_positive_list("THREADS", text, 100) == expected


@pytest.mark.parametrize("text", ["0", "-1", "a", "1,,2", "101", ""])
def test_bad_lists(text):
    with pytest.raises(PlanError, match="THREADS"):
        parse_positive_list("THREADS", text, 100)


def test_default_plan_is_every_server_in_order():
    plan = make_plan("all", "10,5", "500", "10s", KNOWN)
    assert [s.name for s in plan.servers] == ["alpha", "beta"]
    assert plan.threads == (10, 5) and plan.connections == 500 and plan.duration_s == 10
    assert plan.load_seconds == 40


def test_servers_are_taken_in_the_order_asked():
    assert [s.name for s in make_plan("beta,alpha", "1", "1", "1s", KNOWN).servers] == ["beta", "alpha"]


@pytest.mark.parametrize("servers, threads, connections, duration, message", [
    ("gamma", "1", "1", "1s", "unknown server gamma; known: alpha, beta"),
    ("all", "10", "5", "1s", "THREADS 10 is more than CONNECTIONS 5"),
    ("all", "1", "5,6", "1s", "CONNECTIONS takes one number"),
    ("all", "1", "0", "1s", "CONNECTIONS must be"),
    ("all", "1", "1", "-3s", "DURATION"),
])
def test_bad_plans(servers, threads, connections, duration, message):
    with pytest.raises(PlanError, match=message.replace("(", r"\(")):
        make_plan(servers, threads, connections, duration, KNOWN)
