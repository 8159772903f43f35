"""The resource readers' pure parsers on real file contents: /proc's stat and status, the
cgroup files and mounts of v1 and v2 and their counters, ExecProbe's output read inside a
container, and each thread's Name line, counted as the blocking pool's when it starts with
the pool's prefix (a prefix of exactly the kernel's 15 characters, a longer Java name cut
as the kernel cuts it)."""

from __future__ import annotations

import pytest

from httplab.running.resources.parse import (ResourceSample, SamplingError, ThreadCounts,
                                             count_threads, exec_thread_counts, is_pool_thread,
                                             parse_cgroup_file, parse_cgroup_mounts,
                                             parse_cpu_stat_seconds, parse_cpuacct_usage_seconds,
                                             parse_cpu_times, parse_exec_sample,
                                             parse_proc_stat_children_ticks,
                                             parse_proc_stat_cpu_ticks,
                                             parse_status_rss_bytes, parse_thread_name,
                                             resolve_cgroup_layout, working_set_bytes)

from tests.support.resource_samples import (AT, CPU_STAT_V2, EXEC_NAMED, EXEC_THREADS, EXEC_V1,
                                            EXEC_V2, ID, MEMORY_STAT_V1, MEMORY_STAT_V2, status)


# --- /proc --------------------------------------------------------------------------------

JAVA_STAT = ("4242 (java) S 1 4242 4242 0 -1 1077936384 51243 0 12 0 1520 304 0 0 20 0 "
             "31 0 8812345 4012345344 70123 18446744073709551615 1 1 0 0 0 0 0 4096 16796926 "
             "0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
TRICKY_NAME_STAT = "77 (my (odd) srv) R 1 77 77 0 -1 4194560 90 0 0 0 7 3 0 0 20 0 1 0 5 1 1\n"


@pytest.mark.parametrize("text, ticks", [
    (JAVA_STAT, 1520 + 304),
    (TRICKY_NAME_STAT, 7 + 3),
], ids=["java", "name with spaces and parentheses"])
def test_proc_stat_gives_user_plus_system_ticks(text, ticks):
    assert parse_proc_stat_cpu_ticks(text) == ticks


def test_a_truncated_stat_line_is_a_sampling_error():
    with pytest.raises(SamplingError):
        parse_proc_stat_cpu_ticks("12 (java) S 1 2 3")


# loadgen/cpu-times.sh's own stat line as the wrk image gave it (shortened at the end), its
# children's ticks set for the test: utime 1 and stime 0 its own, cutime 412 and cstime 57 the
# tool's.
WRAPPER_STAT = ("1 (cpu-times.sh) S 0 1 1 0 -1 4194560 1007 8364 6 11 1 0 412 57 20 0 1 0 "
                "1200664 2654208 233 18446744073709551615 1 1 0 0 0 0 0 0 65538 0 0 0 17 0")


@pytest.mark.parametrize("text, ticks", [
    (WRAPPER_STAT, 412 + 57),
    (JAVA_STAT, 0),  # a process whose children used nothing
    (TRICKY_NAME_STAT, 0),
], ids=["wrapper", "java", "name with spaces and parentheses"])
def test_proc_stat_gives_the_waited_for_childrens_ticks(text, ticks):
    assert parse_proc_stat_children_ticks(text) == ticks


@pytest.mark.parametrize("text, seconds", [
    (f"clock_ticks_per_second 100\nstat {WRAPPER_STAT}\n", 4.69),
    (f"stat {WRAPPER_STAT}\nclock_ticks_per_second 1000\n", 0.469),  # any order, any rate
])
def test_cpu_times_gives_the_tools_seconds(text, seconds):
    assert parse_cpu_times(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", [
    "", "clock_ticks_per_second 100\n", f"stat {WRAPPER_STAT}\n",
    f"clock_ticks_per_second 0\nstat {WRAPPER_STAT}\n",
    f"clock_ticks_per_second\nstat {WRAPPER_STAT}\n",
    "clock_ticks_per_second 100\nstat 1 (cpu-times.sh) S 0 1\n",  # cut short by a kill
    "clock_ticks_per_second 100\nstat 1 (sh) S 0 1 1 0 -1 4 5 6 7 8 9 9 x y 20\n",
], ids=["empty", "no stat", "no ticks", "zero ticks", "ticks without a value", "short stat",
        "not numbers"])
def test_what_cpu_times_sh_does_not_write_is_a_sampling_error(text):
    with pytest.raises(SamplingError):
        parse_cpu_times(text)


STATUS = """Name:\tjava
Umask:\t0022
State:\tS (sleeping)
Pid:\t4242
VmPeak:\t 3918304 kB
VmSize:\t 3918304 kB
VmHWM:\t  281604 kB
VmRSS:\t  280492 kB
RssAnon:\t  254020 kB
Threads:\t31
"""
ZOMBIE_STATUS = "Name:\tjava\nState:\tZ (zombie)\nPid:\t4242\nThreads:\t1\n"


def test_status_gives_vmrss_in_bytes():
    assert parse_status_rss_bytes(STATUS) == 280492 * 1024


def test_status_without_vmrss_says_the_process_may_have_exited():
    with pytest.raises(SamplingError, match="exited"):
        parse_status_rss_bytes(ZOMBIE_STATUS)


# --- cgroup files -------------------------------------------------------------------------

CGROUP_V1_HYBRID = f"""9:name=systemd:/docker/{ID}
8:pids:/docker/{ID}
4:memory:/docker/{ID}
3:cpuset:/docker/{ID}
2:cpuacct:/docker/{ID}
1:cpu:/docker/{ID}
0::/docker/{ID}
"""
CGROUP_V1_COMBINED = f"""11:memory:/docker/{ID}
4:cpu,cpuacct:/docker/{ID}
1:name=systemd:/docker/{ID}
"""
CGROUP_V2_SYSTEMD = f"0::/system.slice/docker-{ID}.scope\n"


@pytest.mark.parametrize("text, expected", [
    (CGROUP_V2_SYSTEMD, [(0, (), f"/system.slice/docker-{ID}.scope")]),
    (CGROUP_V1_COMBINED, [(11, ("memory",), f"/docker/{ID}"),
                          (4, ("cpu", "cpuacct"), f"/docker/{ID}"),
                          (1, ("name=systemd",), f"/docker/{ID}")]),
    ("0::/\n", [(0, (), "/")]),
], ids=["v2 systemd scope", "v1 combined cpu,cpuacct", "v2 root"])
def test_cgroup_file_lines(text, expected):
    entries = parse_cgroup_file(text)
    assert [(e.hierarchy, e.controllers, e.path) for e in entries] == expected


MOUNTINFO_V1_SEPARATE = """31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""
MOUNTINFO_V1_COMBINED = """25 18 0:22 / /sys/fs/cgroup ro,nosuid shared:9 - tmpfs tmpfs ro,mode=755
30 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:12 - cgroup cgroup rw,cpu,cpuacct
31 25 0:28 / /sys/fs/cgroup/memory rw,nosuid shared:13 - cgroup cgroup rw,memory
"""
# A harness inside a container sees only its own part of each hierarchy.
MOUNTINFO_V1_SUBTREE = """700 690 0:27 /docker /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup rw,cpu,cpuacct
701 690 0:28 /docker /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory
"""
MOUNTINFO_V2 = ("29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev shared:4 - cgroup2 cgroup2 "
                "rw,nsdelegate,memory_recursiveprot\n")


def test_mountinfo_lists_only_cgroup_mounts():
    mounts = parse_cgroup_mounts(MOUNTINFO_V1_SEPARATE)
    assert [(m.mount_point, m.version) for m in mounts] == [
        ("/sys/fs/cgroup/cpu", 1), ("/sys/fs/cgroup/cpuacct", 1),
        ("/sys/fs/cgroup/memory", 1), ("/sys/fs/cgroup/unified", 2)]
    assert "cpuacct" in mounts[1].options


@pytest.mark.parametrize("cgroup, mountinfo, version, cpu_dir, memory_dir", [
    (CGROUP_V1_HYBRID, MOUNTINFO_V1_SEPARATE, 1,
     f"/sys/fs/cgroup/cpuacct/docker/{ID}", f"/sys/fs/cgroup/memory/docker/{ID}"),
    (CGROUP_V1_COMBINED, MOUNTINFO_V1_COMBINED, 1,
     f"/sys/fs/cgroup/cpu,cpuacct/docker/{ID}", f"/sys/fs/cgroup/memory/docker/{ID}"),
    (CGROUP_V1_COMBINED, MOUNTINFO_V1_SUBTREE, 1,
     f"/sys/fs/cgroup/cpu,cpuacct/{ID}", f"/sys/fs/cgroup/memory/{ID}"),
    (CGROUP_V2_SYSTEMD, MOUNTINFO_V2, 2,
     f"/sys/fs/cgroup/system.slice/docker-{ID}.scope",
     f"/sys/fs/cgroup/system.slice/docker-{ID}.scope"),
], ids=["v1 hybrid (this machine)", "v1 combined", "v1 mount shows a subtree", "v2 systemd"])
def test_cgroup_layout_resolution(cgroup, mountinfo, version, cpu_dir, memory_dir):
    layout = resolve_cgroup_layout(cgroup, mountinfo)
    assert (layout.version, str(layout.cpu_dir), str(layout.memory_dir)) == (
        version, cpu_dir, memory_dir)


@pytest.mark.parametrize("cgroup, mountinfo, message", [
    (CGROUP_V2_SYSTEMD, MOUNTINFO_V1_COMBINED, "neither"),
    (f"4:memory:/other/{ID}\n2:cpuacct:/other/{ID}\n", MOUNTINFO_V1_SUBTREE, "outside"),
    (CGROUP_V1_COMBINED, MOUNTINFO_V2, "not mounted"),
], ids=["no v2 mount", "path outside the mount", "controller not mounted"])
def test_unresolvable_cgroups_say_why(cgroup, mountinfo, message):
    with pytest.raises(SamplingError, match=message):
        resolve_cgroup_layout(cgroup, mountinfo)


def test_cpu_stat_usage_usec_in_seconds():
    assert parse_cpu_stat_seconds(CPU_STAT_V2) == pytest.approx(0.042951)


@pytest.mark.parametrize("text, seconds", [("906046722\n", 0.906046722), ("0\n", 0.0)])
def test_cpuacct_usage_nanoseconds_in_seconds(text, seconds):
    assert parse_cpuacct_usage_seconds(text) == pytest.approx(seconds)


@pytest.mark.parametrize("usage, stat, key, expected", [
    ("7724992\n", MEMORY_STAT_V1, "total_inactive_file", 7724992 - 3000000),
    ("236978176\n", MEMORY_STAT_V2, "inactive_file", 236978176 - 41943040),
    ("100\n", MEMORY_STAT_V2, "inactive_file", 0),  # never negative
    ("5000\n", "anon 5000\n", "inactive_file", 5000),  # no page cache line at all
], ids=["v1 total_inactive_file", "v2 inactive_file", "clamped", "missing key"])
def test_working_set_subtracts_inactive_page_cache(usage, stat, key, expected):
    assert working_set_bytes(usage, stat, key) == expected


def test_unparsable_counters_are_sampling_errors():
    for parse, text in ((parse_cpu_stat_seconds, "user_usec 5\n"),
                        (parse_cpuacct_usage_seconds, "max\n")):
        with pytest.raises(SamplingError):
            parse(text)
    with pytest.raises(SamplingError):
        working_set_bytes("max\n", "", "inactive_file")


# --- ExecProbe's output, read inside a container ------------------------------------------

# Thread 12 ended between the shell listing it and grep reading it: one line, or none.
EXEC_VANISHED = EXEC_V2.replace("1/task/12/status:voluntary_ctxt_switches:\t1000\n", "")


@pytest.mark.parametrize("text, version, sample", [
    (EXEC_V2, 2, ResourceSample(2.5, 236978176 - 41943040, 1100, 2, AT,
                                involuntary_switches=60)),
    (EXEC_V1, 1, ResourceSample(0.906046722, 7724992 - 3000000, 1100, 2, AT,
                                involuntary_switches=60)),
    (EXEC_VANISHED, 2, ResourceSample(2.5, 236978176 - 41943040, 42, 1, AT,
                                      involuntary_switches=2)),
    (EXEC_V2.replace("1/task/", "57/task/"), 2,
     ResourceSample(2.5, 236978176 - 41943040, taken_at_s=AT)),
], ids=["cgroup v2", "cgroup v1", "a thread vanished", "no thread but the shell's"])
def test_exec_output_gives_the_container_sample_without_the_shell(text, version, sample):
    assert parse_exec_sample(text) == (version, sample)


@pytest.mark.parametrize("text, message", [
    (EXEC_V2.replace("@@httplab sampler 57 63\n", ""), "ended early"),
    (EXEC_V2.replace("1795404001.250000000\n", ""), "clock did not answer"),
    (EXEC_V2.replace("236978176\n", ""), "no memory.current"),
    (EXEC_V2.replace("usage_usec 2500000\n", ""), "no cpu.stat"),
    (EXEC_V2.split("@@httplab memory.stat")[0] + EXEC_THREADS, "no memory.stat"),
    (EXEC_THREADS, "neither cgroup v2 cpu.stat nor cgroup v1 cpuacct.usage"),
    (EXEC_V1.replace("906046722", "max"), "cpuacct.usage"),
    ("", "ended early"),
], ids=["cut short", "no time", "empty section", "nothing needed in cpu.stat", "missing section",
        "no cgroup files", "garbage counter", "no output"])
def test_incomplete_exec_output_is_a_sampling_error_saying_what_is_missing(text, message):
    with pytest.raises(SamplingError, match=message):
        parse_exec_sample(text)


# --- Threads by name: the Name line and the pool's prefix ---------------------------------

@pytest.mark.parametrize("text, name", [
    (status("java"), "java"),
    (status("XNIO-1 task-3"), "XNIO-1 task-3"),
    (status("vert.x-worker-t"), "vert.x-worker-t"),
    ("Name:\tends in a space \nState:\tS\n", "ends in a space "),
    ("Name:\t\nState:\tS\n", ""),
    (status(None), None),
], ids=["java", "spaces", "15 characters", "trailing space kept", "empty", "no Name line"])
def test_the_name_line_gives_the_threads_comm(text, name):
    assert parse_thread_name(text) == name


@pytest.mark.parametrize("name, prefix, counted", [
    ("boundedElastic-1", "boundedElastic-", True),
    ("boundedElastic-", "boundedElastic-", True),
    ("parallel-1", "boundedElastic-", False),
    ("my-boundedElastic-1", "boundedElastic-", False),  # a prefix, not anywhere in the name
    ("XNIO-1 task-3", "XNIO-1 task-", True),
    ("XNIO-1 I/O-1", "XNIO-1 task-", False),
    ("vert.x-worker-t", "vert.x-worker-t", True),  # the kernel's 15, prefix and name alike
    ("vert.x-eventloo", "vert.x-worker-t", False),
    ("vert.x-worker-t", "vert.x-worker-thread-", True),  # a Java name, cut as comm is
    (None, "boundedElastic-", False),
], ids=["pool thread", "the prefix itself", "other pool", "inside the name", "spaces",
        "spaces, other pool", "15 characters", "15 characters, other pool",
        "longer prefix cut at 15", "unnamed"])
def test_a_pool_thread_is_one_whose_name_starts_with_the_prefix(name, prefix, counted):
    assert is_pool_thread(name, prefix) is counted


def test_no_thread_read_means_nothing_counted():
    assert count_threads([], "boundedElastic-") == ThreadCounts(None, None, None)
    assert count_threads([status("boundedElastic-1")[:20]], "boundedElastic-") == ThreadCounts()


@pytest.mark.parametrize("text, prefix, threads, pool", [
    (EXEC_NAMED, "XNIO-1 task-", 2, 1),  # 13 ended after its Name line: not counted
    (EXEC_NAMED, "XNIO-1 ", 2, 1),
    (EXEC_NAMED, "boundedElastic-", 2, 0),
    (EXEC_NAMED, None, 2, None),
    (EXEC_V2, "XNIO-1 task-", 2, 0),  # an older output without names: none of the pool
], ids=["spaces", "shorter prefix", "other pool", "no prefix", "no Name lines"])
def test_exec_output_counts_pool_threads_by_their_name_lines(text, prefix, threads, pool):
    version, sample = parse_exec_sample(text, prefix)
    assert (version, sample) == (2, ResourceSample(2.5, 236978176 - 41943040, 1100, threads,
                                                   AT, pool, involuntary_switches=60))


def test_exec_thread_counts_group_lines_by_thread_and_leave_out_the_sampler():
    lines = ("7/task/7/status:Name:\tvert.x-worker-t\n"
             "7/task/7/status:voluntary_ctxt_switches:\t5\n"
             "7/task/7/status:nonvoluntary_ctxt_switches:\t1\n"
             "9/task/9/status:Name:\tvert.x-worker-t\n"
             "9/task/9/status:voluntary_ctxt_switches:\t5\n"
             "9/task/9/status:nonvoluntary_ctxt_switches:\t1\n")
    assert exec_thread_counts(lines, frozenset({9}), "vert.x-worker-t") == ThreadCounts(6, 1, 1, involuntary_switches=1)
