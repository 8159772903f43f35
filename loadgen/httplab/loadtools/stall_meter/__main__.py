"""The stall meter as a process: `python3 -m httplab.loadtools.stall_meter --duration-s 60
--out raw/<stem>.stalls.json --cpu 0=server --cpu 1="load tool"`. One child per CPU
(per_cpu.py), pinned there, sleeps --interval-ms in a loop and records how late each
wake-up was, until its duration is over or the process gets SIGTERM or SIGINT; then it
writes one JSON (to --out, or standard output): each CPU's record (what it measured, its
histogram, its own CPU seconds, when it ran, what ran on that CPU and the CPU's steal time
over the run from /proc/stat). Without --cpu it meters every CPU it may run on, each with
--role. Standard library only, as the wrk image has no more.

Each child asks to run as a real-time task (SCHED_FIFO at the lowest priority, 1) where it
may (as root): above every ordinary process, it is then late only when its CPU itself
stalls (the hypervisor takes it, a real-time task or an interrupt holds it), not when the
run it measures keeps every CPU busy, which would delay an ordinary sleeper by up to
seconds on a 2-core host. Its record says how it ran."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

from httplab.loadtools.stall_meter.per_cpu import Stop, meter_each_cpu
from httplab.loadtools.stall_meter.steal import read_steal_ticks, steal_seconds, ticks_per_second

FORMAT = 2  # of the JSON it writes, each CPU's record inside; report.py reads it
# Of each CPU's record (1: the whole file's format once, one meter, with the lab's own
# buckets; 2: each lateness's exact count, reduced to an HdrHistogram on the lab's machine).
CPU_RECORD_FORMAT = 2
READY_LINE = "stall meter: measuring"  # on stderr, once SIGTERM and SIGINT end it with a record
DEFAULT_INTERVAL_MS = 10.0  # under 1 % of a core here even on a busy host (docs/method.md)
DEFAULT_THRESHOLD_MS = 1.0  # a wake-up this late or later is a stall
REAL_TIME = "SCHED_FIFO 1"  # how it runs where it may (report.py reads it)
HERE = "host"  # its place on the lab's machine (a load generator's engine names its own)


def _clock() -> dict[str, float]:
    return {"monotonic_s": time.monotonic(), "wall_s": time.time()}


def real_time_priority(note: str | None = None) -> str:
    """REAL_TIME when the scheduler granted it, else 'normal' and why (with what the lab
    knows of it: `note`)."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except (OSError, AttributeError) as error:
        return f"normal ({error}; {note})" if note else f"normal ({error})"
    return REAL_TIME


def measure(interval_ms: float, duration_s: float, threshold_ms: float,
            stop: Stop, place: str = HERE, priority: str = "normal") -> dict:
    """Sleeps and records until the duration is over or stop is set. The loop counts each
    lateness in µs exactly (a few hundred distinct values in a run), written as they are:
    the HdrHistogram they become is made on the lab's machine (running/raw_reduction.py),
    as the wrk image has no library but the standard one."""
    interval_s, interval_ns = interval_ms / 1000, round(interval_ms * 1e6)
    threshold_us = round(threshold_ms * 1000)
    counts: dict[int, int] = {}
    stalled_us = stalls = 0
    sleep, clock = time.sleep, time.monotonic_ns
    started, startup_cpu_s = _clock(), time.process_time()
    previous = clock()
    end_ns = previous + round(duration_s * 1e9)
    while stop.signal_name is None and previous < end_ns:
        sleep(interval_s)
        now = clock()
        late_us = (now - previous - interval_ns) // 1000
        previous = now
        counts[late_us] = counts.get(late_us, 0) + 1
        if late_us >= threshold_us:
            stalled_us, stalls = stalled_us + late_us, stalls + 1
    return {"format": CPU_RECORD_FORMAT, "place": place, "priority": priority,
            "interval_us": interval_ns // 1000,
            "threshold_us": threshold_us,
            "samples": sum(counts.values()), "max_us": max(max(counts, default=0), 0),
            "stalls": stalls, "stalled_us": stalled_us, "lateness_us": _lateness(counts),
            "started": started, "ended": _clock(),
            "stopped_by": stop.signal_name or "duration", **_cpu(startup_cpu_s)}


def _lateness(counts: dict[int, int]) -> list[list[int]]:
    """[lateness in µs, count] ascending; an early wake-up (below 0) counts as 0."""
    merged: dict[int, int] = {}
    for late_us, count in counts.items():
        merged[max(late_us, 0)] = merged.get(max(late_us, 0), 0) + count
    return [[late_us, merged[late_us]] for late_us in sorted(merged)]


def _cpu(startup_cpu_s: float) -> dict[str, float]:
    """Its own CPU seconds: the whole process's, and the loop's alone (what it cost while
    the run was measured; starting Python costs about 0.06 s more, before the run)."""
    cpu_s = time.process_time()
    return {"cpu_s": cpu_s, "loop_cpu_s": cpu_s - startup_cpu_s}


def chosen_cpus(asked: list[str], role: str, allowed: set[int]) -> dict[int, str]:
    """Each CPU to meter with what runs there: --cpu's 'N=role' (or 'N', with `role`)
    among the CPUs this process may run on, or every one of those with `role`."""
    cpus = {}
    for text in asked:
        cpu, _, own_role = text.partition("=")
        cpus[int(cpu)] = own_role or role
    chosen = {cpu: cpus[cpu] for cpu in sorted(cpus) if cpu in allowed}
    return chosen or {cpu: role for cpu in sorted(allowed)}


def measure_every_cpu(args: argparse.Namespace, stop: Stop) -> dict:
    """Every chosen CPU's record, with its steal time over the run, in one JSON."""
    cpus = chosen_cpus(args.cpu, args.role, os.sched_getaffinity(0))

    def measure_on(cpu: int, role: str) -> dict:
        priority = real_time_priority(args.real_time_note)
        return {**measure(args.interval_ms, args.duration_s, args.threshold_ms, stop,
                          args.place, priority), "cpu": cpu, "role": role}

    started, steal_before = _clock(), read_steal_ticks()
    print(READY_LINE, file=sys.stderr, flush=True)
    records = meter_each_cpu(cpus, measure_on, stop)
    steal = steal_seconds(steal_before, read_steal_ticks(), ticks_per_second())
    return {"format": FORMAT, "place": args.place, "started": started, "ended": _clock(),
            "stopped_by": stop.signal_name or "duration",
            "cpus": [{**record, "steal_s": steal.get(record["cpu"])} for record in records]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m httplab.loadtools.stall_meter",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--interval-ms", type=float, default=DEFAULT_INTERVAL_MS)
    parser.add_argument("--duration-s", type=float, required=True,
                        help="the longest it runs; SIGTERM or SIGINT end it sooner")
    parser.add_argument("--threshold-ms", type=float, default=DEFAULT_THRESHOLD_MS)
    parser.add_argument("--out", type=Path, help="where the JSON goes (default: stdout)")
    parser.add_argument("--place", default=HERE, help="where it runs, as its JSON says")
    parser.add_argument("--cpu", action="append", default=[],
                        help="N or N=what runs there, once per CPU (default: every CPU it "
                             "may run on)")
    parser.add_argument("--role", default="", help="what runs on a CPU --cpu names no role of")
    parser.add_argument("--real-time-note",
                        help="why it may not run as a real-time task, said if it does not")
    args = parser.parse_args(argv)
    stop = Stop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    text = json.dumps(measure_every_cpu(args, stop)) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
