"""Resource sampling: pure parsers on real file contents, the summary arithmetic, the
probes and the Sampler on a fake clock and fixed CPU readings, a real process under
ProcProbe, a Sampler whose probe fails, ExecProbe's script on a fake /proc and cgroup and
its probe on a fake docker, and (docker-marked) a container, read from its cgroup and from
inside.

No test asserts a CPU rate measured in real time, which a loaded host could slow: cores are
checked on injected clocks and counters, and real processes only against CPU time they
burned by their own measure."""

from __future__ import annotations

from dataclasses import replace
import os
import re
import resource
import subprocess
import sys
import threading
import time

import pytest

from httplab.running.resources.parse import (ResourceSample, SamplingError, parse_cgroup_file,
                                             parse_cgroup_mounts, parse_cpu_stat_seconds,
                                             parse_cpuacct_usage_seconds, parse_exec_sample,
                                             parse_proc_stat_cpu_ticks, parse_status_rss_bytes,
                                             resolve_cgroup_layout, working_set_bytes)
from httplab.running.resources.probes import (CGROUP_V1, CGROUP_V2, EXEC_SCRIPT, EXEC_SOURCE,
                                              PROC_SOURCE, CgroupProbe, ExecProbe, ProcProbe,
                                              UnavailableProbe, container_main_pid,
                                              probe_for_remote_container)
from httplab.running.resources.sampler import Sampler, summarize_samples

from tests.docker_support import engine_problem, first_present_image, require

ID = "8641b9b5a4ad2ddeecc5d15c0da8c19ea5b09eac57ff7f3265f114131b0d1866"

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
# Thread 12 ended between the shell listing it and grep reading it: one line, or none.
EXEC_VANISHED = EXEC_V2.replace("1/task/12/status:voluntary_ctxt_switches:\t1000\n", "")


@pytest.mark.parametrize("text, version, sample", [
    (EXEC_V2, 2, ResourceSample(2.5, 236978176 - 41943040, 1100, 2, AT)),
    (EXEC_V1, 1, ResourceSample(0.906046722, 7724992 - 3000000, 1100, 2, AT)),
    (EXEC_VANISHED, 2, ResourceSample(2.5, 236978176 - 41943040, 42, 1, AT)),
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


def run_exec_script(root, cgroup_line: str, files: dict[str, str]) -> str:
    """EXEC_SCRIPT run by this host's sh on a fake /proc and /sys/fs/cgroup under root,
    with two JVM threads in the fake /proc: "java" and "XNIO-1 task-3"."""
    for name, text in {"self_cgroup": cgroup_line, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    for tid, name, switches in ((1, "java", 40), (12, "XNIO-1 task-3", 1000)):
        (root / "proc" / "1" / "task" / str(tid)).mkdir(parents=True)
        (root / "proc" / "1" / "task" / str(tid) / "status").write_text(
            f"Name:\t{name}\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t{switches}\n"
            f"nonvoluntary_ctxt_switches:\t2\n")
    script = (EXEC_SCRIPT.replace("/proc/self/cgroup", f"{root}/self_cgroup")
              .replace("/sys/fs/cgroup", f"{root}/cgroup").replace("cd /proc", f"cd {root}/proc"))
    return subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=30,
                          check=True).stdout


V2_FILES = {"cgroup/docker/c0ffee/cpu.stat": CPU_STAT_V2,
            "cgroup/docker/c0ffee/memory.current": "236978176\n",
            "cgroup/docker/c0ffee/memory.stat": MEMORY_STAT_V2}
V1_FILES = {"cgroup/cpuacct/cpuacct.usage": "906046722\n",
            "cgroup/memory/memory.usage_in_bytes": "7724992\n",
            "cgroup/memory/memory.stat": MEMORY_STAT_V1}


@pytest.mark.parametrize("cgroup_line, files, expected", [
    ("0::/docker/c0ffee\n", V2_FILES, (2, ResourceSample(0.042951, 236978176 - 41943040, 1044, 2))),
    (f"12:pids:/docker/{ID}\n0::/docker/{ID}\n", V1_FILES,
     (1, ResourceSample(0.906046722, 7724992 - 3000000, 1044, 2))),
], ids=["cgroup v2", "cgroup v1"])
def test_the_exec_script_prints_what_the_parser_reads(tmp_path, cgroup_line, files, expected):
    before = time.time()
    output = run_exec_script(tmp_path, cgroup_line, files)
    version, sample = parse_exec_sample(output)
    assert before <= sample.taken_at_s <= time.time()  # dated by the container's clock
    assert (version, replace(sample, taken_at_s=None)) == expected
    assert "anon" not in output  # only the lines needed


def test_the_exec_script_on_a_container_without_cgroup_files_gives_the_reason(tmp_path):
    output = run_exec_script(tmp_path, "0::/\n", {})
    with pytest.raises(SamplingError, match="no cpu.stat"):
        parse_exec_sample(output)


def fake_docker(folder, script: str) -> dict[str, str]:
    """An environment whose `docker` is a shell script, for ExecProbe without an engine."""
    (folder / "docker").write_text(f"#!/bin/sh\n{script}\n")
    (folder / "docker").chmod(0o755)
    return {"PATH": f"{folder}:/usr/bin:/bin"}


def test_exec_probe_reads_its_commands_output_and_names_the_cgroup_version(tmp_path):
    (tmp_path / "output").write_text(EXEC_V1)
    probe = ExecProbe("c0ffee", fake_docker(tmp_path, f'cat "{tmp_path}/output"'))
    assert probe.source == EXEC_SOURCE
    assert probe.read() == ResourceSample(0.906046722, 7724992 - 3000000, 1100, 2, AT)
    assert probe.source == f"{EXEC_SOURCE}, {CGROUP_V1}"


@pytest.mark.parametrize("script, message", [
    ('echo "Error: No such container: c0ffee" >&2; exit 1', "exited 1: Error: No such container"),
    ("echo 'sh: 1: cannot open /sys/fs/cgroup/cpu.stat' >&2", "ended early .*cannot open"),
    ("exec sleep 5", "did not answer within 0.5 s"),
], ids=["no such container", "missing files", "hangs"])
def test_a_failing_exec_is_a_sampling_error_and_no_probe(tmp_path, script, message):
    env = fake_docker(tmp_path, script)
    with pytest.raises(SamplingError, match=message):
        ExecProbe("c0ffee", env, timeout_s=0.5).read()
    if "sleep" not in script:
        unavailable = probe_for_remote_container("c0ffee", env)
        assert isinstance(unavailable, UnavailableProbe) and unavailable.source == EXEC_SOURCE
        assert re.search(message, unavailable.reason)


def test_without_docker_the_exec_probe_says_so(tmp_path):
    with pytest.raises(SamplingError, match="cannot run docker exec"):
        ExecProbe("c0ffee", {"PATH": str(tmp_path)}).read()


# --- summarize_samples --------------------------------------------------------------------

MiB = 2**20


def test_summary_divides_cpu_seconds_by_wall_seconds_and_averages_memory():
    samples = [(10.0, ResourceSample(100.0, 200 * MiB)),
               (10.5, ResourceSample(101.0, 260 * MiB)),
               (12.0, ResourceSample(103.0, 230 * MiB))]
    usage = summarize_samples(samples, source="/proc")
    assert usage.cpu_cores == pytest.approx(1.5)
    assert (usage.memory_peak_bytes, usage.memory_mean_bytes) == (260 * MiB, 230 * MiB)
    assert (usage.samples, usage.source, usage.unavailable) == (3, "/proc", None)


def test_one_sample_gives_memory_but_no_cpu_and_says_why():
    usage = summarize_samples([(1.0, ResourceSample(5.0, 64 * MiB))])
    assert usage.cpu_cores is None and usage.unavailable
    assert (usage.memory_peak_bytes, usage.memory_mean_bytes, usage.samples) == (
        64 * MiB, 64 * MiB, 1)


@pytest.mark.parametrize("samples, reason", [
    ([], "no samples"),
    ([(1.0, ResourceSample(5.0, 1)), (1.0, ResourceSample(5.0, 1))], "no time"),
    ([(1.0, ResourceSample(5.0, 1)), (2.0, ResourceSample(1.0, 1))], "backwards"),
])
def test_cpu_is_unknown_when_the_samples_cannot_give_it(samples, reason):
    usage = summarize_samples(samples)
    assert usage.cpu_cores is None
    assert reason in usage.unavailable


# --- ProcProbe on a real process, Sampler ------------------------------------------------

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
# /proc rounds utime and stime down to a clock tick each, so their sum may trail by two.
PROC_ROUNDING_S = 2 / TICKS_PER_SECOND


def fake_proc(root, pid: int, ticks: int, rss_kib: int) -> None:
    """A /proc/<pid> with the given utime + stime and VmRSS."""
    (root / str(pid)).mkdir(exist_ok=True)
    (root / str(pid) / "stat").write_text(
        f"{pid} (java) S 1 {pid} {pid} 0 -1 4194560 90 0 0 0 {ticks - 4} 4 0 0 20 0 31 0 5 1 1\n")
    (root / str(pid) / "status").write_text(f"Name:\tjava\nVmRSS:\t {rss_kib} kB\n")


def test_proc_probe_reads_clock_ticks_as_seconds_and_rss_as_bytes(tmp_path):
    fake_proc(tmp_path, 4242, ticks=3 * TICKS_PER_SECOND, rss_kib=1024)
    assert ProcProbe(4242, proc=tmp_path).read() == ResourceSample(3.0, 1024 * 1024)


def test_proc_probe_cores_are_cpu_seconds_over_wall_seconds(tmp_path):
    """Two reads of a fake /proc at fake times: 3 CPU seconds in 2 wall seconds is 1.5."""
    fake_proc(tmp_path, 4242, ticks=10 * TICKS_PER_SECOND, rss_kib=100 * 1024)
    probe = ProcProbe(4242, proc=tmp_path)
    first = (100.0, probe.read())
    fake_proc(tmp_path, 4242, ticks=13 * TICKS_PER_SECOND, rss_kib=300 * 1024)
    usage = summarize_samples([first, (102.0, probe.read())], probe.source)
    assert usage.cpu_cores == pytest.approx(1.5)
    assert (usage.memory_peak_bytes, usage.memory_mean_bytes) == (300 * MiB, 200 * MiB)
    assert (usage.source, usage.unavailable) == (PROC_SOURCE, None)


class ScriptedProbe:
    """Each read adds cpu_step CPU seconds and each clock call wall_step seconds, so any
    number of samples gives cpu_step / wall_step cores. Sets `enough` after `wanted` reads."""

    source = "test"

    def __init__(self, cpu_step: float, wall_step: float, wanted: int):
        self.cpu_step, self.wall_step, self.wanted = cpu_step, wall_step, wanted
        self.reads = self.ticks = 0
        self.enough = threading.Event()

    def clock(self) -> float:
        self.ticks += 1
        return 1000.0 + self.ticks * self.wall_step

    def read(self) -> ResourceSample:
        self.reads += 1
        if self.reads >= self.wanted:
            self.enough.set()
        return ResourceSample(50.0 + self.reads * self.cpu_step, (100 + self.reads) * MiB)


def test_sampler_divides_cpu_seconds_by_clock_seconds_over_its_background_samples():
    probe = ScriptedProbe(cpu_step=0.75, wall_step=0.5, wanted=4)
    with Sampler(probe, interval_s=0.001, clock=probe.clock) as sampler:
        assert probe.enough.wait(timeout=60), "the sampling thread never sampled"
    usage = sampler.usage()
    assert usage.samples == probe.reads >= 5  # entry, at least 3 in the background, exit
    assert usage.cpu_cores == pytest.approx(1.5)
    assert usage.memory_peak_bytes == (100 + probe.reads) * MiB
    assert (usage.source, usage.unavailable) == ("test", None)


BURN_CPU = """import sys, time
while time.process_time() < float(sys.argv[1]):
    pass
print(time.process_time(), flush=True)
sys.stdin.read()
"""


def children_cpu_seconds() -> float:
    """CPU time of this process's reaped children, from the kernel's exit accounting."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def test_proc_probe_reads_the_cpu_time_a_child_burned_by_its_own_measure():
    """However slow the host, the child's CPU time in /proc lies between what the child
    measured itself and what the kernel accounts for it once it has exited (less or more
    /proc's rounding), and it never goes backwards."""
    reaped_before = children_cpu_seconds()
    child = subprocess.Popen([sys.executable, "-c", BURN_CPU, "0.3"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        probe = ProcProbe(child.pid)
        with Sampler(probe, interval_s=0.05) as sampler:
            before = probe.read()
            burned = float(child.stdout.readline())
            after = probe.read()
        usage = sampler.usage()
    finally:
        child.kill()
        child.wait()
    total = children_cpu_seconds() - reaped_before  # all the child ever used
    assert burned >= 0.3
    assert burned - PROC_ROUNDING_S <= after.cpu_seconds <= total + PROC_ROUNDING_S
    assert after.cpu_seconds >= before.cpu_seconds
    assert before.memory_bytes > 0 and after.memory_bytes > 0
    assert usage.unavailable is None, usage.unavailable
    assert usage.source == PROC_SOURCE and usage.samples >= 2
    assert usage.cpu_cores is not None and usage.cpu_cores >= 0
    assert usage.memory_peak_bytes > 0 and usage.memory_mean_bytes > 0


def test_proc_probe_of_a_missing_process_is_a_sampling_error():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    with pytest.raises(SamplingError, match=str(child.pid)):
        ProcProbe(child.pid).read()


class FlakyProbe:
    source = "test"

    def __init__(self, good_reads: int):
        self.good_reads = good_reads

    def read(self) -> ResourceSample:
        if self.good_reads <= 0:
            raise SamplingError("cannot read /sys/fs/cgroup/memory/x/memory.stat: gone")
        self.good_reads -= 1
        return ResourceSample(1.0, 1)


@pytest.mark.parametrize("probe", [FlakyProbe(0), FlakyProbe(2), UnavailableProbe("no pid", "test")],
                         ids=["fails at once", "fails midway", "unavailable probe"])
def test_a_failing_probe_yields_unavailable_and_never_raises(probe):
    with Sampler(probe, interval_s=0.01) as sampler:
        time.sleep(0.1)
    usage = sampler.usage()
    assert usage.unavailable in ("cannot read /sys/fs/cgroup/memory/x/memory.stat: gone", "no pid")
    assert (usage.cpu_cores, usage.memory_peak_bytes, usage.source) == (None, None, "test")


def test_a_probe_bug_is_reported_not_raised():
    class BrokenProbe:
        source = "test"

        def read(self) -> ResourceSample:
            raise ZeroDivisionError("division by zero")

    with Sampler(BrokenProbe()) as sampler:
        pass
    assert sampler.usage().unavailable == "division by zero"


def test_sampler_samples_at_start_and_stop_even_when_the_block_is_short():
    ticks = iter(range(100))
    with Sampler(FlakyProbe(100), interval_s=60, clock=lambda: float(next(ticks))) as sampler:
        pass
    usage = sampler.usage()
    assert usage.samples == 2 and usage.cpu_cores == 0.0


# --- CgroupProbe against a real container --------------------------------------------------

# Any image with a shell will do: the lab's local base, its wrk image, or the official Debian one.
BURNER_IMAGES = ("httplab/debian-jre:bookworm", "httplab/wrk:latest", "debian:bookworm-slim")


def wait_for_cpu_seconds(probe: ProcProbe, at_least: float, limit_s: float = 120) -> float:
    """Polls until the process has used at_least CPU seconds. The limit only guards against
    a hang: how fast it gets there is never asserted."""
    deadline = time.monotonic() + limit_s
    while (used := probe.read().cpu_seconds) < at_least:
        assert time.monotonic() < deadline, f"only {used} CPU seconds after {limit_s} s"
        time.sleep(0.02)
    return used


@pytest.mark.docker
def test_cgroup_probe_counts_at_least_the_cpu_time_of_the_container_process():
    """The container's only process burns CPU; its cgroup's CPU time is never less than the
    process's own (read from the host's /proc before it), whatever the host's speed."""
    require(engine_problem())
    image = first_present_image(*BURNER_IMAGES)
    require(None if image else f"none of {', '.join(BURNER_IMAGES)} is present")
    started = subprocess.run(["docker", "run", "-d", "--rm", "--network", "none",
                              "--entrypoint", "sh", image,
                              "-c", "while :; do :; done"],
                             capture_output=True, text=True, check=True)
    container = started.stdout.strip()
    try:
        pid = container_main_pid(container)
        probe, process = CgroupProbe.for_pid(pid), ProcProbe(pid)
        with Sampler(probe, interval_s=0.05) as sampler:
            burned = wait_for_cpu_seconds(process, process.read().cpu_seconds + 0.2)
            counted = probe.read()
        usage = sampler.usage()
    finally:
        subprocess.run(["docker", "rm", "-f", container], capture_output=True)
    assert counted.cpu_seconds >= burned - PROC_ROUNDING_S
    assert counted.memory_bytes > 0
    assert usage.unavailable is None, usage.unavailable
    assert usage.source in (CGROUP_V1, CGROUP_V2)
    assert usage.cpu_cores is not None and usage.cpu_cores > 0  # 0.2 s burned while sampled
    assert usage.memory_peak_bytes > 0


# --- ExecProbe against a real container -----------------------------------------------------


@pytest.mark.docker
@pytest.mark.slow
def test_exec_probe_reads_what_the_cgroup_probe_reads_around_it():
    """After a short load, each ExecProbe reading lies between two CgroupProbe readings of
    the same container taken just before and after it: the same counters, seen from
    inside; the exec'd shell is not among the threads."""
    from tests.running.backends.test_remote_checks import running_netty

    with running_netty() as (container, port):
        subprocess.run(["docker", "run", "--rm", "--network", "host", "httplab/wrk:latest",
                        "-t1", "-c8", "-d2s", f"http://127.0.0.1:{port}/"],
                       capture_output=True, timeout=120, check=True)
        host, inside = CgroupProbe.for_pid(container_main_pid(container)), ExecProbe(
            container, dict(os.environ))
        readings = [(host.read(), inside.read(), host.read()) for _ in range(3)]
    for before, seen, after in readings:
        assert before.cpu_seconds <= seen.cpu_seconds <= after.cpu_seconds
        assert seen.memory_bytes == pytest.approx(before.memory_bytes, rel=0.1)
        # The JVM may end a thread (a JIT compiler's) meanwhile, taking its switches along.
        if before.threads == after.threads:
            assert seen.threads == before.threads
            assert before.context_switches <= seen.context_switches <= after.context_switches
    assert readings[0][0].cpu_seconds > 0.1  # the load counted: the comparison means something
    assert inside.source == f"{EXEC_SOURCE}, {host.source}"


class SelfDatingProbe:
    """Reads as ExecProbe does: each sample dated by the container's clock, here 2 s apart
    while the sampler's own clock says 100 s passed (a slow exec would misdate them)."""

    source = "docker exec"

    def __init__(self):
        self.reads = iter([ResourceSample(10.0, MiB, taken_at_s=5000.0),
                           ResourceSample(11.0, MiB, taken_at_s=5002.0)])

    def read(self):
        return next(self.reads)


def test_a_probe_that_dates_its_reads_is_timed_by_its_own_clock():
    ticks = iter([0.0, 100.0])
    with Sampler(SelfDatingProbe(), interval_s=60, clock=lambda: next(ticks)) as sampler:
        pass
    assert sampler.usage().cpu_cores == pytest.approx(0.5)
