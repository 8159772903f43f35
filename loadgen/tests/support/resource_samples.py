"""Samples shared by the resource sampling tests (tests/running/resources/): cgroup files
as the kernel writes them, ExecProbe's output as its script prints it inside a container,
and a thread's /proc status."""

from __future__ import annotations

ID = "8641b9b5a4ad2ddeecc5d15c0da8c19ea5b09eac57ff7f3265f114131b0d1866"
CPU_STAT_V2 = """usage_usec 42951
user_usec 34372
system_usec 8578
nr_periods 0
nr_throttled 0
throttled_usec 0
"""
MEMORY_STAT_V1 = """cache 4096000
rss 110592
inactive_file 1000
active_file 2000
hierarchical_memory_limit 9223372036854771712
total_cache 4096000
total_rss 110592
total_inactive_anon 106496
total_active_anon 4096
total_inactive_file 3000000
total_active_file 1096000
"""
MEMORY_STAT_V2 = """anon 180224000
file 52428800
kernel 3145728
inactive_anon 0
active_anon 180224000
inactive_file 41943040
active_file 10485760
"""
# As printed by probes.EXEC_SCRIPT: PID 1 is the JVM (two threads), 57 the exec'd shell
# and 63 its grep, which the last line names.
EXEC_THREADS = """@@httplab threads
1/task/1/status:voluntary_ctxt_switches:\t40
1/task/1/status:nonvoluntary_ctxt_switches:\t2
1/task/12/status:voluntary_ctxt_switches:\t1000
1/task/12/status:nonvoluntary_ctxt_switches:\t58
57/task/57/status:voluntary_ctxt_switches:\t3
57/task/57/status:nonvoluntary_ctxt_switches:\t1
63/task/63/status:voluntary_ctxt_switches:\t0
63/task/63/status:nonvoluntary_ctxt_switches:\t1
@@httplab sampler 57 63
"""
EXEC_V2 = """@@httplab time
1795404001.250000000
@@httplab cpu.stat
usage_usec 2500000
@@httplab memory.current
236978176
@@httplab memory.stat
inactive_file 41943040
""" + EXEC_THREADS
EXEC_V1 = """@@httplab time
1795404001.250000000
@@httplab cpuacct.usage
906046722
@@httplab memory.usage_in_bytes
7724992
@@httplab memory.stat
inactive_file 1000
total_inactive_file 3000000
""" + EXEC_THREADS
AT = 1795404001.25  # the container's clock when it read its counters
# PID 1 is the JVM, 57 the exec'd shell and 63 its grep, which the last line names; the
# shell's thread is named like a pool thread here, to show that it is left out.
EXEC_NAMED = EXEC_V2.replace("1/task/1/status:voluntary", "1/task/1/status:Name:\tjava\n"
                             "1/task/1/status:voluntary").replace(
    "1/task/12/status:voluntary", "1/task/12/status:Name:\tXNIO-1 task-3\n"
    "1/task/12/status:voluntary").replace(
    "57/task/57/status:voluntary", "57/task/57/status:Name:\tXNIO-1 task-9\n"
    "57/task/57/status:voluntary").replace(
    "@@httplab sampler", "1/task/13/status:Name:\tXNIO-1 task-4\n@@httplab sampler")
MiB = 2**20


def status(name: str | None, switches: int = 10) -> str:
    """A thread's /proc status: its Name line (none when name is None) and switch counts."""
    named = "" if name is None else f"Name:\t{name}\n"
    return (f"{named}Umask:\t0022\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t{switches}\n"
            "nonvoluntary_ctxt_switches:\t1\n")
