"""Which layer of the server a profile's sample counts in: the one place the rules are
stated, as a table (LAYER_RULES), which docs/method.md lists ("Profiles"). Pure.

A sample counts in the layer of the first rule, in the table's order, that its stack meets:
whole threads first (the JIT compiler's, the GC's), then the kernel at the leaf, then the
Java code the thread was running: the leaf frame when it is a Java one, else the nearest
Java frame below a native leaf (a memset, or a JVM runtime call made for that Java code,
counts for it). Frames are written as async-profiler writes them (java/lang/Thread.run)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum

from httplab.loadtools.async_profiler.collapsed import (is_kernel_frame, java_name,
                                                        without_annotation)
from httplab.model import RunProfile

KERNEL, JDK, NETTY, FRAMEWORK, HANDLER, GC, JIT, OTHER = (
    "kernel", "JDK", "Netty", "framework", "handler", "GC", "JIT", "other")
LAYERS = (KERNEL, JDK, NETTY, FRAMEWORK, HANDLER, GC, JIT, OTHER)  # as the results show them
HANDLER_PACKAGE = "httplab"  # the lab's own server code: servers/*/src/main/java/httplab/


class Where(str, Enum):
    """Which frames of a stack a rule looks at, and how it matches its names."""

    THREAD = "a frame of the stack starts with"
    KERNEL_LEAF = "the leaf frame is a kernel one"
    LEAF = "the leaf frame is"
    LEAF_LIBRARY = "the leaf frame is an unnamed frame of the library"
    JAVA = "the nearest Java frame to the leaf is in the package"


@dataclass(frozen=True)
class LayerRule:
    layer: str
    where: Where
    # frame names' beginnings (THREAD), names (LEAF), libraries' file names (LEAF_LIBRARY),
    # packages (JAVA)
    names: tuple[str, ...]
    meaning: str


# The VM operations that collect (JDK 17 to 25): G1's, Serial's, Parallel's, and the
# collection a full metaspace triggers.
_COLLECTING_VM_OPERATIONS = ("VM_G1", "VM_GenCollect", "VM_SerialCollect", "VM_ParallelGC",
                             "VM_ParallelCollect", "VM_CollectForMetadataAllocation")
# GC threads: parallel workers (GangWorker in JDK 17, WorkerThread from 21), concurrent
# ones (G1's marking, refinement and service threads, ZGC's, Shenandoah's).
_GC_THREADS = ("GangWorker::", "WorkerThread::run", "ConcurrentGCThread::run",
               "G1ServiceThread::")
# The libc wrappers that enter the kernel, as glibc names them: with event itimer there
# are no kernel frames and a system call's CPU shows in these. The condition-variable
# calls are among them: what they cost beyond a few instructions is their futex call (a
# parked thread's wake-up, which Undertow's 200 workers make often).
SYSTEM_CALL_WRAPPERS = tuple(
    f"{prefix}{name}" for name in ("send", "sendto", "sendmsg", "recv", "recvfrom", "recvmsg",
                                   "read", "write", "readv", "writev", "epoll_wait",
                                   "epoll_pwait", "epoll_pwait2", "epoll_ctl", "accept",
                                   "accept4", "close", "shutdown", "futex", "syscall",
                                   "sched_yield", "nanosleep", "clock_nanosleep",
                                   "pthread_cond_signal", "pthread_cond_broadcast",
                                   "pthread_cond_wait", "pthread_cond_timedwait")
    for prefix in ("", "__", "__GI_", "__GI___", "__libc_"))
JDK_PACKAGES = ("java", "javax", "jdk", "sun", "com.sun")

# The rules, in the order they are tried; a stack that meets none counts as OTHER: Java
# libraries (Jackson, HikariCP, the JDBC driver, logging), the VM's own threads, and
# stacks with no Java frame. FRAMEWORK's packages are the server's (None here): checked
# before Netty's, so that a framework's own packages on Netty's name count as its own.
LAYER_RULES: tuple[LayerRule, ...] = (
    LayerRule(JIT, Where.THREAD, ("CompileBroker::compiler_thread_loop",),
              "a JIT compiler thread"),
    LayerRule(GC, Where.THREAD, _GC_THREADS + _COLLECTING_VM_OPERATIONS,
              "a GC thread, or the VM thread running a collection"),
    LayerRule(KERNEL, Where.KERNEL_LEAF, (),
              "kernel code (frames marked _[k], seen with event cpu only)"),
    LayerRule(KERNEL, Where.LEAF, SYSTEM_CALL_WRAPPERS,
              "a libc system-call wrapper: with itimer, kernel means these"),
    # Measured in the images' Debian libc: such frames sit under Unsafe.park (its futex
    # wait), writev0 and setEventOps (epoll_ctl), i.e. system calls whose wrapper is unnamed.
    LayerRule(KERNEL, Where.LEAF_LIBRARY, ("libc.so.6",),
              "a libc frame async-profiler could not name: its internal futex and I/O calls"),
    LayerRule(FRAMEWORK, Where.JAVA, (), "the framework's own packages (its server.toml's "
                                         "framework_packages)"),
    LayerRule(NETTY, Where.JAVA, ("io.netty",), "Netty"),
    LayerRule(HANDLER, Where.JAVA, (HANDLER_PACKAGE,), "the lab's own server code"),
    LayerRule(JDK, Where.JAVA, JDK_PACKAGES, "the JDK's classes"),
)


def layer_rules(framework_packages: tuple[str, ...]) -> tuple[LayerRule, ...]:
    """The table with this server's framework packages in its FRAMEWORK rule."""
    return tuple(replace(rule, names=framework_packages) if rule.layer == FRAMEWORK else rule
                 for rule in LAYER_RULES)


def layer_of(frames: tuple[str, ...], rules: tuple[LayerRule, ...]) -> str:
    """The layer a sample in this stack (first frame first) counts in."""
    return next((rule.layer for rule in rules if _MEETS[rule.where](frames, rule.names)),
                OTHER)


def _has_thread_frame(frames: tuple[str, ...], names: tuple[str, ...]) -> bool:
    return any(frame.startswith(names) for frame in frames)


def _kernel_leaf(frames: tuple[str, ...], _: tuple[str, ...]) -> bool:
    return is_kernel_frame(frames[-1])


def _leaf_named(frames: tuple[str, ...], names: tuple[str, ...]) -> bool:
    return without_annotation(frames[-1]) in names


def _leaf_in_library(frames: tuple[str, ...], libraries: tuple[str, ...]) -> bool:
    return any(frames[-1].endswith(f"/{library}") for library in libraries)


def _nearest_java_in(frames: tuple[str, ...], packages: tuple[str, ...]) -> bool:
    java = nearest_java_frame(frames)
    return java is not None and any(java.startswith(f"{package}.") for package in packages)


def nearest_java_frame(frames: tuple[str, ...]) -> str | None:
    """The Java frame closest to the leaf (the leaf itself when it is one), dotted."""
    return next((name for name in map(java_name, reversed(frames)) if name), None)


_MEETS: dict[Where, Callable[[tuple[str, ...], tuple[str, ...]], bool]] = {
    Where.THREAD: _has_thread_frame, Where.KERNEL_LEAF: _kernel_leaf,
    Where.LEAF: _leaf_named, Where.LEAF_LIBRARY: _leaf_in_library,
    Where.JAVA: _nearest_java_in,
}


def layer_share(profile: RunProfile, layer: str) -> float | None:
    """Of a run's samples, the share a layer holds (the kernel's is seen with event cpu
    only); None without samples."""
    if not profile.samples:
        return None
    return dict(profile.layers).get(layer, 0) / profile.samples
