"""async-profiler's collapsed stacks read into Stacks, and the frames' kinds told apart."""

from __future__ import annotations

import pytest

from httplab.loadtools.async_profiler.collapsed import (Stack, is_kernel_frame, java_name,
                                                        parse_collapsed, without_annotation)
from tests.conftest import FIXTURES

PROFILES = FIXTURES / "profiles"


def test_a_line_is_its_frames_root_first_and_its_samples():
    text = ("java/lang/Thread.run;io/netty/channel/unix/Socket.sendAddress;__GI___send 291\n"
            "\n"
            "start_thread;thread_native_entry;GangWorker::loop 2\n")
    assert parse_collapsed(text) == (
        Stack(("java/lang/Thread.run", "io/netty/channel/unix/Socket.sendAddress",
               "__GI___send"), 291),
        Stack(("start_thread", "thread_native_entry", "GangWorker::loop"), 2))


def test_frames_may_hold_spaces_the_samples_are_the_last_word():
    (stack,) = parse_collapsed("[unknown_Java];I2C/C2I adapters 1\n")
    assert stack.frames == ("[unknown_Java]", "I2C/C2I adapters")
    assert stack.leaf == "I2C/C2I adapters"
    (templated,) = parse_collapsed(
        "Thread::call_run;void G1ScanCardClosure::do_oop_work<narrowOop> 3")
    assert templated.leaf == "void G1ScanCardClosure::do_oop_work<narrowOop>"
    assert templated.samples == 3


@pytest.mark.parametrize("line, words", [
    ("java/lang/Thread.run", "expected 'frame;...;frame <samples>'"),
    ("java/lang/Thread.run x", "expected 'frame;...;frame <samples>'"),
    ("java/lang/Thread.run -3", "expected 'frame;...;frame <samples>'"),
    ("java/lang/Thread.run 0", "expected 'frame;...;frame <samples>'"),
    (" 12", "12 samples without a stack"),
])
def test_a_malformed_line_is_a_value_error_naming_the_line(line, words):
    with pytest.raises(ValueError) as error:
        parse_collapsed(f"a;b 1\n{line}\n", "raw/netty-t2-c50.collapsed.txt")
    assert str(error.value).startswith(f"raw/netty-t2-c50.collapsed.txt:2: {words}")


@pytest.mark.parametrize("name", sorted(path.name for path in PROFILES.glob("*.collapsed.txt")))
def test_every_fixture_reads_whole(name):
    text = (PROFILES / name).read_text()
    stacks = parse_collapsed(text, name)
    assert len(stacks) == len(text.splitlines())
    assert sum(stack.samples for stack in stacks) == sum(
        int(line.rsplit(" ", 1)[1]) for line in text.splitlines())


@pytest.mark.parametrize("frame, java", [
    ("java/lang/Thread.run", "java.lang.Thread.run"),
    ("io/netty/channel/epoll/AbstractEpollChannel$AbstractEpollUnsafe.handle",
     "io.netty.channel.epoll.AbstractEpollChannel$AbstractEpollUnsafe.handle"),
    ("java/lang/String.<init>", "java.lang.String.<init>"),
    ("httplab/netty/HelloHandler.respond_[j]", "httplab.netty.HelloHandler.respond"),
    ("java/lang/invoke/LambdaForm$MH/0x0000000800c0b048.invoke",
     "java.lang.invoke.LambdaForm$MH.0x0000000800c0b048.invoke"),
    ("I2C/C2I adapters", None),
    ("/usr/lib/x86_64-linux-gnu/libc.so.6", None),
    ("/tmp/libnetty_transport_native_epoll_x86_6417423859894488539702.so (deleted)", None),
    ("CompileBroker::compiler_thread_loop", None),
    ("tcp_sendmsg_locked_[k]", None),
    ("__GI___send", None),
    ("Interpreter", None),
    ("[unknown_Java]", None),
])
def test_java_frames_are_told_from_native_kernel_and_vm_ones(frame, java):
    assert java_name(frame) == java


def test_kernel_frames_and_annotations():
    assert is_kernel_frame("finish_task_switch.isra.0_[k]")
    assert not is_kernel_frame("__GI___send")
    assert without_annotation("epoll_pwait2_[k]") == "epoll_pwait2"
    assert without_annotation("PhaseChaitin::Split") == "PhaseChaitin::Split"
