"""JFR's jcmd commands as the lab sends them, and jcmd's replies read by what they say
(jcmd answers 0 to a command it could not carry out); as the JVMs of JDK 21 and 25 said."""

from __future__ import annotations

import pytest

from httplab.loadtools.jfr.command import (STARTED, STOPPED, jcmd_failure, print_arguments,
                                           start_command, stop_command)

STARTED_REPLY = ("Connected to remote JVM\nJVM response code = 0\nStarted recording 1. No "
                 "limit specified, using maxsize=250MB as default.\n\nUse jcmd 19610 JFR.dump "
                 "name=httplab-pinned filename=FILEPATH to copy recording data to file.\n")
STOPPED_REPLY = ("Connected to remote JVM\nJVM response code = 0\nStopped recording "
                 '"httplab-pinned", 112.1 kB written to:\n\n/tmp/x.pinned.jfr\n')


def test_the_recording_holds_the_pinned_event_alone_every_one_with_its_stack():
    assert start_command() == (
        "JFR.start name=httplab-pinned settings=none +jdk.VirtualThreadPinned#enabled=true "
        "+jdk.VirtualThreadPinned#threshold=0ms +jdk.VirtualThreadPinned#stackTrace=true")
    assert stop_command("/tmp/x.pinned.jfr") == \
        "JFR.stop name=httplab-pinned filename=/tmp/x.pinned.jfr"
    assert print_arguments("jfr", "x.jfr") == [
        "jfr", "print", "--json", "--stack-depth", "16", "--events",
        "jdk.VirtualThreadPinned", "x.jfr"]


def test_a_path_jcmd_would_split_is_refused():
    with pytest.raises(ValueError, match="may not hold one"):
        stop_command("/tmp/my runs/x.pinned.jfr")


@pytest.mark.parametrize("expected, code, output, failure", [
    (STARTED, 0, STARTED_REPLY, None),
    (STOPPED, 0, STOPPED_REPLY, None),
    (STOPPED, 0, 'Connected to remote JVM\nJVM response code = 0\nCould not stop recording '
                 '"httplab-pinned".\n', 'exit code 0 (Could not stop recording "httplab-pinned".)'),
    (STARTED, 1, "Could not start the JVM: Connection refused\n",
     "exit code 1 (Could not start the JVM: Connection refused)"),
    (STARTED, -1, "", "exit code -1"),
], ids=["started", "stopped", "not-stopped-but-0", "unreachable", "silent"])
def test_a_reply_is_read_by_what_the_jvm_said(expected, code, output, failure):
    assert jcmd_failure(expected, code, output) == failure
