"""One meter per CPU: the meter's process forks a child for each CPU it meters; the child pins
itself there, measures, and sends its record back through a pipe. A host stall often takes
one CPU only (a vCPU the hypervisor descheduled, a real-time task or an interrupt on one
core), and an unpinned meter runs on whichever CPU is free: it would not see it.

Why processes and not threads: threads share Python's lock (the GIL), and a thread frozen
on its CPU while holding it would make the others wake late too, one CPU's stall seen on
every CPU. The parent only waits; SIGTERM and SIGINT it receives go on to every child
(each then ends its loop and sends its record), and a child whose parent dies gets SIGTERM
from the kernel (Linux), so no meter outlives its run. Standard library only."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable

STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}
_PR_SET_PDEATHSIG = 1  # prctl(2)


class Stop:
    """Set by SIGTERM or SIGINT: the loop ends at its next wake-up. In the parent it also
    passes the signal on to the children."""

    def __init__(self) -> None:
        self.signal_name: str | None = None
        self.children: list[int] = []

    def __call__(self, signum, _frame) -> None:
        self.signal_name = signal.Signals(signum).name
        for pid in self.children:
            try:
                os.kill(pid, signum)
            except ProcessLookupError:  # ended already, not yet reaped
                pass


def meter_each_cpu(cpus: dict[int, str], measure_on: Callable[[int, str], dict],
                   stop: Stop) -> list[dict]:
    """measure_on(cpu, role) in a child pinned to each CPU; their records, in the order of
    `cpus` (a child that left none is left out)."""
    children = [_forked(cpu, role, measure_on, stop) for cpu, role in cpus.items()]
    return [record for record in (_gathered(*child, stop) for child in children) if record]


def _forked(cpu: int, role: str, measure_on: Callable[[int, str], dict],
            stop: Stop) -> tuple[int, int]:
    """The child's pid and the pipe its record comes on. The stop signals wait while it is
    forked, so none comes between the fork and the parent knowing its pid."""
    read_end, write_end = os.pipe()
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        stop.children = []
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        _child(cpu, role, measure_on, write_end)
    stop.children.append(pid)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    os.close(write_end)
    return pid, read_end


def _child(cpu: int, role: str, measure_on: Callable[[int, str], dict], write_end: int):
    """Pinned, measures, writes its record, and ends (never returns into the parent's code)."""
    code = 1
    try:
        _end_with_parent()
        os.sched_setaffinity(0, {cpu})
        record = measure_on(cpu, role)
        with os.fdopen(write_end, "w") as pipe:
            pipe.write(json.dumps(record))
        code = 0
    finally:
        os._exit(code)


def _end_with_parent() -> None:
    """SIGTERM when the parent dies (Linux's prctl; elsewhere, or in a Python without
    ctypes, the child ends at its duration)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (ImportError, OSError, AttributeError):
        pass


def _gathered(pid: int, read_end: int, stop: Stop) -> dict | None:
    """The child's record once it ended (reaped, so no signal goes to its pid again)."""
    with os.fdopen(read_end) as pipe:
        text = pipe.read()
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    os.waitpid(pid, 0)
    stop.children.remove(pid)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    return json.loads(text) if text else None
