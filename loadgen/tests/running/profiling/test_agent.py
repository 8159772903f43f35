"""async-profiler's agent as jattach drives it: the arguments of each command, jattach's
reply read back, and the agent's own error found in the server's log."""

from __future__ import annotations

import pytest

from httplab.model import PROFILE_EVENTS
from httplab.running.profiling.agent import (AgentReply, ProfilerError, check_arguments,
                                             dump_arguments, last_agent_error, read_reply,
                                             sampling_interval, start_arguments,
                                             stop_arguments)


@pytest.mark.parametrize("arguments, expected", [
    (check_arguments("cpu-clock"), "check,event=cpu-clock"),
    (check_arguments("itimer"), "check,event=itimer"),
    (start_arguments("cpu", 5_000_000), "start,event=cpu,interval=5000000"),
    (start_arguments("alloc", 524288), "start,event=alloc,interval=524288"),
    (stop_arguments("/tmp/netty-t5-c500.collapsed.txt"),
     "stop,file=/tmp/netty-t5-c500.collapsed.txt,collapsed"),
    (dump_arguments("/tmp/netty-t5-c500.flame.html"),
     "dump,file=/tmp/netty-t5-c500.flame.html,flamegraph"),
])
def test_each_command_is_the_agents_arguments(arguments, expected):
    assert arguments == expected


@pytest.mark.parametrize("event, interval", [
    ("cpu", 5_000_000), ("itimer", 5_000_000), ("wall", 5_000_000), ("alloc", 512 * 1024)])
def test_the_time_events_sample_every_5_ms_and_alloc_every_512_kib(event, interval):
    assert sampling_interval(event) == interval


def test_every_event_has_an_interval_and_no_other_does():
    assert all(sampling_interval(event) > 0 for event in PROFILE_EVENTS)
    with pytest.raises(ValueError):
        sampling_interval("cycles")


@pytest.mark.parametrize("make", [stop_arguments, dump_arguments])
def test_a_path_with_a_comma_is_refused_as_the_agent_would_split_it(make):
    with pytest.raises(ProfilerError, match="may not hold one"):
        make("/results/a,b/netty.collapsed.txt")


GREETING = "Connected to remote JVM\nJVM response code = 0\n"


@pytest.mark.parametrize("exit_code, output, reply", [
    (0, GREETING + "return code: 0\n\n", AgentReply(0)),
    (200, GREETING + "return code: 200\n\n", AgentReply(200)),
    (1, "Process 999999 not found\n", AgentReply(1, "Process 999999 not found")),
    (255, "Connected to remote JVM\nJVM response code = -1\n/x.so was not loaded.\n"
          "/x.so: cannot open shared object file: No such file or directory\n",
     AgentReply(255, "JVM response code = -1; /x.so was not loaded.; /x.so: cannot open "
                     "shared object file: No such file or directory")),
    (127, "sh: 1: jattach: not found\n", AgentReply(127, "sh: 1: jattach: not found")),
], ids=["done", "refused", "no-process", "no-agent", "no-jattach"])
def test_jattachs_reply_is_its_return_code_and_what_else_it_said(exit_code, output, reply):
    assert read_reply(exit_code, output) == reply


def test_a_reply_says_its_code_and_message():
    assert AgentReply(0).ok and not AgentReply(200).ok
    assert AgentReply(200).summary == "return code 200"
    assert AgentReply(1, "Process 7 not found").summary == "return code 1 (Process 7 not found)"


def test_the_agents_last_error_is_found_in_the_servers_output():
    log = ("httplab-ready framework=Netty\nOK\n[ERROR] Unsupported event type\n"
           "Profiling started\n[ERROR] Operation not permitted\n[INFO] No samples\n")
    assert last_agent_error(log) == "[ERROR] Operation not permitted"
    assert last_agent_error("httplab-ready framework=Netty\nOK\n") is None
