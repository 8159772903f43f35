"""The layer rules: one row per rule of LAYER_RULES, with stacks of real frames from the
profiles in fixtures/profiles (trimmed in the middle), and the rules' order."""

from __future__ import annotations

import pytest

from httplab.loadtools.async_profiler.collapsed import parse_collapsed
from httplab.results.profile_layers import (FRAMEWORK, GC, HANDLER, JDK, JIT, KERNEL,
                                            LAYER_RULES, LAYERS, NETTY, OTHER, Where,
                                            layer_of, layer_rules)
from tests.conftest import FIXTURES

WEBFLUX = ("org.springframework", "reactor")
UNDERTOW = ("org.springframework", "io.undertow", "org.xnio", "org.jboss.threads")
EVENT_LOOP = "java/lang/Thread.run;io/netty/util/concurrent/FastThreadLocalRunnable.run"

# (layer, where: the rule the row shows, the server's framework packages, the stack)
ROWS = [
    (JIT, Where.THREAD, (), "start_thread;thread_native_entry;Thread::call_run;"
     "JavaThread::thread_main_inner;CompileBroker::compiler_thread_loop;"
     "CompileBroker::invoke_compiler_on_method;C2Compiler::compile_method;Compile::Compile;"
     "PhaseChaitin::gather_lrg_masks;asm_sysvec_reschedule_ipi_[k];irqentry_exit_to_user_mode_[k]"),
    (GC, Where.THREAD, (), "start_thread;thread_native_entry;Thread::call_run;GangWorker::run;"
     "GangWorker::loop;G1EvacuateRegionsBaseTask::work;nmethod::oops_do"),  # JDK 17
    (GC, Where.THREAD, (), "start_thread;thread_native_entry;Thread::call_run;WorkerThread::run;"
     "G1EvacuateRegionsBaseTask::work;G1EvacuateRegionsTask::scan_roots;"
     "void G1ScanCardClosure::do_oop_work<narrowOop>"),  # JDK 25
    (GC, Where.THREAD, (), "start_thread;thread_native_entry;Thread::call_run;"
     "ConcurrentGCThread::run;G1PrimaryConcurrentRefineThread::do_refinement_step"),
    (GC, Where.THREAD, (), "start_thread;thread_native_entry;Thread::call_run;VMThread::run;"
     "VMThread::inner_execute;VMThread::evaluate_operation;VM_Operation::evaluate;"
     "VM_G1CollectForAllocation::doit;G1YoungCollector::collect;"
     "CollectedHeap::trace_heap_after_gc"),
    (KERNEL, Where.KERNEL_LEAF, (), f"{EVENT_LOOP};io/netty/channel/unix/Socket.sendAddress;"
     "__x64_sys_sendto_[k];__sys_sendto_[k];tcp_sendmsg_[k];tcp_sendmsg_locked_[k]"),
    (KERNEL, Where.LEAF, (), f"{EVENT_LOOP};io/netty/channel/unix/Socket.sendAddress;"
     "io/netty/channel/unix/Socket.sendAddress;__GI___send"),  # itimer, on the host
    (KERNEL, Where.LEAF, (), f"{EVENT_LOOP};io/netty/channel/epoll/Native.epollWait;"
     "io/netty/channel/epoll/Native.epollWait0;epoll_pwait2"),
    (KERNEL, Where.LEAF, (), f"{EVENT_LOOP};io/netty/channel/unix/Socket.recvAddress;"
     "io/netty/channel/unix/Socket.recvAddress;recv"),  # itimer in Docker
    (KERNEL, Where.LEAF_LIBRARY, (), "java/lang/Thread.run;org/jboss/threads/EnhancedQueue"
     "Executor$ThreadBody.run;jdk/internal/misc/Unsafe.park;Unsafe_Park;"
     "/usr/lib/x86_64-linux-gnu/libc.so.6"),  # itimer in Docker: the futex of a park
    (FRAMEWORK, Where.JAVA, WEBFLUX, f"{EVENT_LOOP};io/netty/channel/AbstractChannelHandler"
     "Context.invokeChannelRead;reactor/netty/channel/ChannelOperationsHandler.channelRead"),
    (FRAMEWORK, Where.JAVA, UNDERTOW, "java/lang/Thread.run;org/xnio/XnioWorker$WorkerThread"
     "Factory$1$1.run;io/undertow/server/HttpServerExchange.endExchange;"
     "org/xnio/IoUtils.safeClose"),
    (NETTY, Where.JAVA, WEBFLUX, f"{EVENT_LOOP};io/netty/handler/codec/CodecOutputList.recycle;"
     "io/netty/handler/codec/CodecOutputList$CodecOutputLists.recycle"),
    (NETTY, Where.JAVA, (), f"{EVENT_LOOP};io/netty/handler/codec/CodecOutputList$CodecOutput"
     "Lists.recycle;Runtime1::counter_overflow"),  # a VM call made for Netty's code
    (HANDLER, Where.JAVA, (), f"{EVENT_LOOP};httplab/netty/HelloHandler.respond;"
     "httplab/netty/HelloResponses.addCommonHeaders;httplab/server/HttpDate.now"),
    (JDK, Where.JAVA, (), f"{EVENT_LOOP};io/netty/buffer/ReadOnlyByteBuf.nioBuffer;"
     "java/nio/DirectByteBuffer.asReadOnlyBuffer"),
    (JDK, Where.JAVA, (), f"{EVENT_LOOP};io/netty/channel/epoll/EpollIoHandler.run;"
     "sun/nio/ch/Util.getTemporaryDirectBuffer;__memset_evex_unaligned_erms"),
    (OTHER, None, (), f"{EVENT_LOOP};httplab/netty/JsonHandler.respond;com/fasterxml/jackson/"
     "databind/ser/DefaultSerializerProvider.serializeValue;com/fasterxml/jackson/databind/"
     "SerializerProvider.findTypedValueSerializer"),
    (OTHER, None, (), "[unknown_Java];I2C/C2I adapters"),
    (OTHER, None, (), "start_thread;thread_native_entry;Thread::call_run;VMThread::run;"
     "VMThread::inner_execute;VM_Operation::evaluate;VM_HandshakeAllThreads::doit"),
    (OTHER, None, UNDERTOW, "java/lang/Thread.run;org/xnio/XnioWorker$WorkerThreadFactory$1$1"
     ".run;jakarta/servlet/http/HttpServlet.service;ch/qos/logback/classic/Logger.isTraceEnabled"),
]


@pytest.mark.parametrize("layer, where, packages, stack", ROWS)
def test_each_rule_with_real_frames(layer, where, packages, stack):
    assert layer_of(tuple(stack.split(";")), layer_rules(packages)) == layer


def test_every_rule_of_the_table_has_a_row():
    shown = {(layer, where) for layer, where, _, _ in ROWS}
    assert {(rule.layer, rule.where) for rule in LAYER_RULES} <= shown


def test_the_table_covers_every_layer_but_other_which_is_what_meets_none():
    assert {rule.layer for rule in LAYER_RULES} == set(LAYERS) - {OTHER}


def test_a_thread_rule_wins_over_the_kernel_leaf():
    """A compiler thread's time in the kernel is the JIT's: the row above ends in _[k]."""
    jit_in_kernel = ROWS[0][3].split(";")
    assert jit_in_kernel[-1].endswith("_[k]") and layer_of(tuple(jit_in_kernel), LAYER_RULES) == JIT


def test_the_framework_is_checked_before_netty():
    stack = (*EVENT_LOOP.split(";"), "io/netty/incubator/channel/uring/IOUring.submit")
    assert layer_of(stack, layer_rules(())) == NETTY
    assert layer_of(stack, layer_rules(("io.netty.incubator",))) == FRAMEWORK


def test_packages_match_whole_names_only():
    stack = (*EVENT_LOOP.split(";"), "reactorx/Foo.bar")
    assert layer_of(stack, layer_rules(("reactor",))) == OTHER


def test_without_the_servers_packages_its_framework_is_other():
    undertow = next(row for row in ROWS if row[0] == FRAMEWORK and row[2] == UNDERTOW)
    assert layer_of(tuple(undertow[3].split(";")), layer_rules(())) == OTHER


def test_itimer_kernel_is_the_system_call_wrappers_in_a_real_profile():
    """The itimer fixture has no kernel frames; its kernel layer is exactly its samples
    whose leaf is a libc wrapper (send, recv, epoll_pwait2 here)."""
    itimer = FIXTURES / "profiles" / "netty-itimer-local.collapsed.txt"
    stacks = parse_collapsed(itimer.read_text())
    assert not any(frame.endswith("_[k]") for stack in stacks for frame in stack.frames)
    kernel = {stack.leaf for stack in stacks if layer_of(stack.frames, LAYER_RULES) == KERNEL}
    assert kernel == {"__GI___send", "recv", "epoll_pwait2"}


def method_section() -> str:
    text = (FIXTURES.parents[2] / "docs" / "method.md").read_text()
    return text.split("## Profiles (PROFILE=1)\n", 1)[1].split("\n## ", 1)[0]


def test_the_docs_list_every_layer_rule_in_the_order_they_are_tried():
    table = method_section().split("| Layer |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|")[1].strip() for line in table.splitlines()[1:]
            if line.startswith("| ")]
    tried = list(dict.fromkeys(rule.layer for rule in LAYER_RULES)) + [OTHER]
    assert rows == tried


def test_the_docs_state_the_shown_order_the_tolerance_and_the_itimer_caveat():
    from httplab.results.profiles import CPU_TOLERANCE
    section = " ".join(method_section().split())
    assert f"in the order {', '.join(LAYERS[:-1])}, {LAYERS[-1]}" in section
    assert f"more than {CPU_TOLERANCE:.0%}".replace("%", " %") in section
    assert "with itimer, kernel means the system-call wrappers in libc" in section
    assert all(f"`{package}`" in section for package in ("io.netty", "httplab"))
