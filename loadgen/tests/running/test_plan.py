import pytest

from httplab.manifest import parse_manifest
from httplab.running.plan import make_plan, parse_duration, parse_positive_list
from httplab.plan_error import PlanError

from tests.support.plans import CPUS, KNOWN, plan_settings


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
    plan = make_plan(plan_settings("all", "10,5", "500", "10s"), KNOWN)
    assert [s.name for s in plan.servers] == ["alpha", "beta"]
    assert plan.threads == (10, 5) and plan.connections == (500,) and plan.duration_s == 10
    assert plan.load_seconds == 40


def test_servers_are_taken_in_the_order_asked():
    plan = make_plan(plan_settings("beta,alpha", "1", "1", "1s"), KNOWN)
    assert [s.name for s in plan.servers] == ["beta", "alpha"]


@pytest.mark.parametrize("servers, threads, connections, duration, message", [
    ("gamma", "1", "1", "1s", "unknown server gamma; known: alpha, beta"),
    ("all", "10", "5", "1s", "CONNECTIONS 5 is below THREADS 10"),
    ("all", "10,5", "16,4,500", "1s", "CONNECTIONS 4 is below THREADS 5"),
    ("all", "1", "5,,6", "1s", "CONNECTIONS must be"),
    ("all", "1", "0", "1s", "CONNECTIONS must be"),
    ("all", "1", "1", "-3s", "DURATION"),
])
def test_bad_plans(servers, threads, connections, duration, message):
    with pytest.raises(PlanError, match=message.replace("(", r"\(")):
        make_plan(plan_settings(servers, threads, connections, duration), KNOWN)




def _plan(**options):
    return make_plan(plan_settings(**options), KNOWN, CPUS)


def test_primer_and_warmup_come_before_the_measured_runs_and_count_in_the_load():
    plan = _plan(repeat="3", primer="5s", warmup="10s")
    assert [(p.name, p.duration_s, p.connections) for p in plan.phases] == \
        [("primer", 5, 8), ("warmup", 10, None)]
    assert (plan.starts, plan.seconds_per_workload) == (6, 5 + 10 + 20)
    assert plan.load_seconds == 3 * 2 * (5 + 10 + 20), "every round warms every server again"


@pytest.mark.parametrize("round_number, order", [
    (1, ["a", "b", "c"]), (2, ["b", "c", "a"]), (3, ["c", "a", "b"]), (4, ["a", "b", "c"]),
])
def test_each_round_starts_one_server_further_on(round_number, order):
    from dataclasses import replace

    from httplab.running.plan import rotated

    servers = tuple(replace(KNOWN[0], name=name) for name in ("a", "b", "c"))
    assert [server.name for server in rotated(servers, round_number)] == order


def test_zero_turns_a_phase_off():
    assert _plan(primer="0", warmup="0s").phases == ()


@pytest.mark.parametrize("options, message", [
    ({"repeat": "0"}, "REPEAT must be a whole number from 1"),
    ({"repeat": "-1"}, "REPEAT must be"),
    ({"repeat": "2,3"}, "REPEAT must be"),
    ({"warmup": "-5s"}, "WARMUP must be 0 \\(none\\) or"),
    ({"primer": "5x"}, "PRIMER must be"),
    ({"server_cpus": "7"}, "SERVER_CPUS '7' names CPU\\(s\\) 7 that this host does not have \\(usable: 0,1\\)"),
    ({"loadgen_cpus": "1-0"}, "LOADGEN_CPUS must be a cpuset"),
    ({"loadgen_cpus": "a"}, "LOADGEN_CPUS must be a cpuset"),
])
def test_bad_options(options, message):
    with pytest.raises(PlanError, match=message):
        _plan(**options)


def test_cpusets_are_kept_as_typed():
    plan = _plan(server_cpus="1", loadgen_cpus="0-0")
    assert (plan.server_cpus, plan.loadgen_cpus) == ("1", "0-0")


def test_a_plan_names_its_phases_for_the_record():
    from httplab.running.plan import settings_of

    plan = _plan(primer="5s", warmup="10s", backend="docker", cv_threshold="0.05")
    assert plan.phase("warmup").duration_s == 10 and plan.phase("cooldown") is None
    settings = settings_of(plan)
    assert (settings.primer_s, settings.primer_connections, settings.warmup_s) == (5.0, 8, 10.0)


@pytest.mark.parametrize("threads, connections, points", [
    ("10,5", "500", [(10, 500), (5, 500)]),
    ("10,5", "16,128,500", [(10, 16), (5, 16), (10, 128), (5, 128), (10, 500), (5, 500)]),
    ("10,5", "8,500", [(8, 8), (5, 8), (10, 500), (5, 500)]),  # capped at the connections
    ("10,5", "5", [(5, 5)]),  # capped into the other setting: measured once
    ("10", "500,16,500", [(10, 500), (10, 16)]),  # each count once, in the order given
])
def test_a_sweep_measures_every_connection_count_with_every_thread_setting(threads, connections,
                                                                          points):
    plan = make_plan(plan_settings("all", threads, connections, "10s"), KNOWN)
    assert [(point.threads, point.connections) for point in plan.points] == points
    assert plan.seconds_per_workload == 10 * len(points)


def test_fairness_runs_h2load_as_long_as_each_measured_run():
    plan = _plan(fairness="1", warmup="10s")
    assert plan.fairness and plan.seconds_per_workload == 10 + 2 * (10 + 10)
    with pytest.raises(PlanError, match="FAIRNESS takes 1"):
        _plan(fairness="yes")


@pytest.mark.parametrize("options, message", [
    ({"cv_threshold": "1"}, "CV_THRESHOLD must be a fraction between 0 and 1, such as 0.05; "
                            "got '1'"),
    ({"cv_threshold": "five"}, "CV_THRESHOLD must be"),
    ({"server_host": "ssh://root@a", "backend": "local"}, "they need BACKEND=docker"),
    ({"loadgen_hosts": "ssh://root@a,ssh://root@b", "target_address": "10.9.0.2",
      "connections": "1", "threads": "1"}, "2 load generators need at least 2 connections"),
    ({"loadgen_hosts": "ssh://root@a", "target_address": "10.9.0.2", "fairness": "1"},
     "FAIRNESS runs h2load from this machine only"),
])
def test_settings_that_cannot_work_together_stop_the_plan(options, message):
    with pytest.raises(PlanError, match=message):
        _plan(**options)


def test_a_plan_on_one_machine_aims_at_loopback():
    plan = _plan()
    assert (plan.topology, plan.server_host, plan.load_generators, plan.target_address) == \
        (None, None, (), "127.0.0.1")


def test_the_record_names_the_machines_the_plan_drives():
    from httplab.running.plan import settings_of

    plan = _plan(server_host="ssh://root@10.9.0.2", loadgen_hosts="ssh://root@a,ssh://root@b")
    settings = settings_of(plan)
    assert (settings.server_host, settings.loadgen_hosts, settings.target_address) == \
        ("ssh://root@10.9.0.2", ("ssh://root@a", "ssh://root@b"), "10.9.0.2")
    assert settings.url == "http://10.9.0.2:8080/" and settings.backend == "docker"
