"""Netty's IoUringProbe read apart from running it, and the one line a run stops with when
io_uring stays refused, naming the setting."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import ENGINE_SECCOMP
from httplab.running.backend_error import BackendError
from httplab.running.io_uring.probe import (SHIPPED_PROFILE, ProbeAnswer, asks_io_uring, read_answer, refused_in_containers,
                                            refused_on_host, seccomp_of, tried)

from tests.support.plans import KNOWN, reference_manifest

CAUSE = "java.lang.RuntimeException: failed to create io_uring ring fd: Operation not permitted"
JAVA_WARNINGS = ("WARNING: A restricted method in java.lang.System has been called\n"
                 "WARNING: Use --enable-native-access=ALL-UNNAMED to avoid a warning\n")


def test_available_is_exit_zero_and_its_line():
    assert read_answer(0, "io_uring available\n", JAVA_WARNINGS) == ProbeAnswer(True)


def test_unavailable_keeps_nettys_cause():
    assert read_answer(1, f"io_uring unavailable: {CAUSE}\n", JAVA_WARNINGS) == \
        ProbeAnswer(False, CAUSE)


@pytest.mark.parametrize("code, stdout, stderr, said", [
    (1, "", "Error: Could not find or load main class httplab.netty.IoUringProbe\n",
     "Error: Could not find or load main class httplab.netty.IoUringProbe"),
    (125, "", "docker: Error response from daemon: No such image: httplab/netty:jdk25.\n",
     "docker: Error response from daemon: No such image: httplab/netty:jdk25."),
    (0, "io_uring unavailable: x\n", "", "io_uring unavailable: x"),  # a line and code at odds
    (137, "", JAVA_WARNINGS, "it printed nothing"),
])
def test_no_answer_is_one_line_with_what_went_wrong(code, stdout, stderr, said):
    with pytest.raises(BackendError) as raised:
        read_answer(code, stdout, stderr)
    message = str(raised.value)
    assert "\n" not in message and message.endswith(said)
    assert f"(exit code {code})" in message and "httplab.netty.IoUringProbe" in message


@pytest.mark.parametrize("setting, named", [("2\n", "kernel.io_uring_disabled=2 (io_uring for no "
                                                    "process)"),
                                            ("1", "kernel.io_uring_disabled=1 (io_uring only for "
                                                  "processes in kernel.io_uring_group)")])
def test_a_kernel_that_refuses_is_named_with_its_value(setting, named):
    for line in (refused_in_containers(CAUSE, setting), refused_on_host(CAUSE, setting)):
        assert "\n" not in line and named in line and CAUSE in line
        assert "set kernel.io_uring_disabled=0" in line and "out of TRANSPORT" in line
    assert str(SHIPPED_PROFILE) in refused_in_containers(CAUSE, setting)


@pytest.mark.parametrize("setting, shown", [("0\n", "kernel.io_uring_disabled=0"),
                                            (None, "kernel.io_uring_disabled=absent")])
def test_a_kernel_that_allows_it_leaves_the_engine_or_the_host_named(setting, shown):
    in_containers = refused_in_containers(CAUSE, setting)
    assert "the Docker engine refuses it under the engine's default seccomp profile and under " \
        f"{SHIPPED_PROFILE}" in in_containers
    on_host = refused_on_host(CAUSE, setting)
    assert "a seccomp filter on the lab's process" in on_host
    for line in (in_containers, on_host):
        assert "\n" not in line and shown in line and CAUSE in line
        assert "set kernel.io_uring_disabled=0" not in line


def test_only_a_run_with_an_io_uring_server_asks_for_the_try():
    alpha, beta = KNOWN
    assert not asks_io_uring(KNOWN + (reference_manifest(),))
    assert not asks_io_uring((alpha.on_axis("TRANSPORT", "epoll", None),
                              alpha.on_axis("TRANSPORT", "nio", None)))
    assert asks_io_uring((alpha.on_axis("TRANSPORT", "epoll", None),
                          beta.on_axis("TRANSPORT", "io_uring", None)))


def test_only_an_io_uring_cell_gets_the_profile_the_try_chose():
    alpha = KNOWN[0]
    for transport in ("nio", "epoll"):
        assert seccomp_of(alpha.on_axis("TRANSPORT", transport, None),
                          SHIPPED_PROFILE.name) == ENGINE_SECCOMP
    io_uring = alpha.on_axis("TRANSPORT", "io_uring", None)
    assert seccomp_of(io_uring, SHIPPED_PROFILE.name) == SHIPPED_PROFILE.name
    assert seccomp_of(io_uring, ENGINE_SECCOMP) == ENGINE_SECCOMP
    own = replace(alpha, transports=("io_uring", "epoll"))  # io_uring as its own default
    assert seccomp_of(own, SHIPPED_PROFILE.name) == SHIPPED_PROFILE.name


def test_what_the_try_found_is_said_in_one_line():
    assert "under the engine's own seccomp profile" in tried(ENGINE_SECCOMP)
    assert f"{SHIPPED_PROFILE} allows it" in tried(SHIPPED_PROFILE.name)
    assert "on this host" in tried(None)
