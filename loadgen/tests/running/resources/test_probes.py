"""The probes that read a server's resources: ExecProbe's script on a fake /proc and
cgroup and its probe on a fake docker, ProcProbe on a fake /proc and on a real process, the
blocking pool's live threads counted by name on each (fake /proc trees, and real threads
named by prctl in a child process), and (docker-marked) a container, read from its cgroup
and from inside.

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
import time

import pytest

from httplab.running.resources.parse import (CgroupLayout, ResourceSample, SamplingError,
                                             ThreadCounts, parse_exec_sample)
from httplab.running.resources.probes import (CGROUP_V1, CGROUP_V2, EXEC_SCRIPT, EXEC_SOURCE,
                                              PROC_SOURCE, CgroupProbe, ExecProbe, ProcProbe,
                                              UnavailableProbe, container_main_pid,
                                              probe_for_remote_container, task_counts)
from httplab.running.resources.sampler import Sampler, summarize_samples

from tests.docker_support import engine_problem, first_present_image, require
from tests.support.resource_samples import (AT, CPU_STAT_V2, EXEC_NAMED, EXEC_V1, ID,
                                            MEMORY_STAT_V1, MEMORY_STAT_V2, MiB, status)


# --- ExecProbe's script on a fake /proc and cgroup, its probe on a fake docker ------------

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
    ("0::/docker/c0ffee\n", V2_FILES, (2, ResourceSample(0.042951, 236978176 - 41943040, 1044, 2,
                                                             involuntary_switches=4))),
    (f"12:pids:/docker/{ID}\n0::/docker/{ID}\n", V1_FILES,
     (1, ResourceSample(0.906046722, 7724992 - 3000000, 1044, 2, involuntary_switches=4))),
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


def test_the_exec_script_prints_the_names_the_parser_counts(tmp_path):
    """EXEC_SCRIPT on a fake /proc whose JVM has "java" and "XNIO-1 task-3"."""
    output = run_exec_script(tmp_path, "0::/docker/c0ffee\n", V2_FILES)
    assert "1/task/12/status:Name:\tXNIO-1 task-3\n" in output
    assert "State:" not in output  # still only the lines needed
    version, sample = parse_exec_sample(output, "XNIO-1 task-")
    assert (version, replace(sample, taken_at_s=None)) == (
        2, ResourceSample(0.042951, 236978176 - 41943040, 1044, 2, None, 1, 4))


def fake_docker(folder, script: str) -> dict[str, str]:
    """An environment whose `docker` is a shell script, for ExecProbe without an engine."""
    (folder / "docker").write_text(f"#!/bin/sh\n{script}\n")
    (folder / "docker").chmod(0o755)
    return {"PATH": f"{folder}:/usr/bin:/bin"}


def test_exec_probe_reads_its_commands_output_and_names_the_cgroup_version(tmp_path):
    (tmp_path / "output").write_text(EXEC_V1)
    probe = ExecProbe("c0ffee", fake_docker(tmp_path, f'cat "{tmp_path}/output"'))
    assert probe.source == EXEC_SOURCE
    assert probe.read() == ResourceSample(0.906046722, 7724992 - 3000000, 1100, 2, AT,
                                          involuntary_switches=60)
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


def test_the_exec_probe_counts_with_its_prefix(tmp_path):
    (tmp_path / "output").write_text(EXEC_NAMED)
    env = fake_docker(tmp_path, f'cat "{tmp_path}/output"')
    assert ExecProbe("c0ffee", env, pool_prefix="XNIO-1 task-").read().pool_threads == 1
    assert ExecProbe("c0ffee", env).read().pool_threads is None


# --- ProcProbe on a fake /proc and on a real process --------------------------------------

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


# --- The blocking pool's threads, counted by name on a fake /proc tree --------------------

UNDERTOW = ["java", "XNIO-1 I/O-1", "XNIO-1 I/O-2", "XNIO-1 Accept", "XNIO-1 task-1",
            "XNIO-1 task-2", "XNIO-1 task-3"]
WEBFLUX = ["java", "reactor-http-ep", "boundedElastic-", "boundedElastic-", "parallel-1"]
VERTX = ["java", "vert.x-eventloo", "vert.x-worker-t", "vert.x-worker-t", "vert.x-internal"]


@pytest.mark.parametrize("names, prefix, pool", [
    (UNDERTOW, "XNIO-1 task-", 3),
    (WEBFLUX, "boundedElastic-", 2),
    (VERTX, "vert.x-worker-t", 2),
    (VERTX, "vert.x-worker-thread-", 2),
    (WEBFLUX, "XNIO-1 task-", 0),  # counted: none started yet
    (WEBFLUX, None, None),  # no prefix: not counted
    (WEBFLUX, "", None),  # nginx's manifest: not counted
], ids=["undertow", "webflux", "vert.x, 15 characters", "vert.x, Java's whole prefix",
        "none started", "no prefix", "empty prefix"])
def test_threads_are_counted_by_name_on_a_fake_proc_tree(tmp_path, names, prefix, pool):
    """task_counts reads a fake /proc/<pid>/task/<tid>/status per thread, once each."""
    write_tasks(tmp_path, 4242, names)
    assert task_counts([4242], tmp_path, prefix) == ThreadCounts(11 * len(names), len(names),
                                                                 pool, len(names))


def write_tasks(root, pid: int, names: list[str | None], first_tid: int | None = None) -> None:
    """Threads of a fake /proc/<pid>, one per name, each with 10 + 1 switches."""
    for tid, name in enumerate(names, start=first_tid or pid):
        task = root / str(pid) / "task" / str(tid)
        task.mkdir(parents=True)
        (task / "status").write_text(status(name))


def test_a_thread_that_ended_while_read_counts_in_neither(tmp_path):
    """Its status lost its switch counts (or could not be read at all): it is gone, and
    neither the threads nor the pool count it."""
    write_tasks(tmp_path, 7, ["java", "boundedElastic-"])
    ended = tmp_path / "7" / "task" / "9"
    ended.mkdir()
    (ended / "status").write_text("Name:\tboundedElastic-\n")
    (tmp_path / "7" / "task" / "10").mkdir()  # no status file
    assert task_counts([7], tmp_path, "boundedElastic-") == ThreadCounts(22, 2, 1, 2)


def test_a_name_cut_inside_a_utf8_character_is_still_read(tmp_path):
    """Java names are UTF-8, and the kernel cuts them at 15 bytes, wherever that falls."""
    write_tasks(tmp_path, 5, ["java"])
    task = tmp_path / "5" / "task" / "6"
    task.mkdir()
    (task / "status").write_bytes(b"Name:\tboundedElastic\xc3\n" + status(None).encode())
    assert task_counts([5], tmp_path, "boundedElastic") == ThreadCounts(22, 2, 1, 2)


def test_the_proc_probe_counts_its_pool_threads_given_a_prefix(tmp_path):
    fake_proc(tmp_path, 4242, ticks=100, rss_kib=1024)
    write_tasks(tmp_path, 4242, UNDERTOW)
    assert ProcProbe(4242, proc=tmp_path, pool_prefix="XNIO-1 task-").read().pool_threads == 3
    for none in (None, ""):
        sample = ProcProbe(4242, proc=tmp_path, pool_prefix=none).read()
        assert (sample.threads, sample.pool_threads) == (len(UNDERTOW), None)


def test_the_cgroup_probe_counts_pool_threads_over_every_process_in_it(tmp_path):
    group = tmp_path / "cgroup"
    group.mkdir()
    for name, text in (("cpu.stat", CPU_STAT_V2), ("memory.current", "236978176\n"),
                       ("memory.stat", MEMORY_STAT_V2), ("cgroup.procs", "1\n30\n")):
        (group / name).write_text(text)
    write_tasks(tmp_path, 1, WEBFLUX)
    write_tasks(tmp_path, 30, ["sh", "boundedElastic-"])  # any process of the container
    probe = CgroupProbe(CgroupLayout(2, group, group), tmp_path, pool_prefix="boundedElastic-")
    sample = probe.read()
    assert (sample.threads, sample.pool_threads, sample.context_switches) == (
        len(WEBFLUX) + 2, 3, 11 * (len(WEBFLUX) + 2))


# --- Real threads, named as a JVM names them ----------------------------------------------

# A JVM sets each thread's comm to its Java name (cut to 15 bytes) as the thread starts;
# prctl(PR_SET_NAME) is the same call, made here by each thread of a child process.
NAMED_THREADS = """import ctypes, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
ready, names = threading.Barrier(len(sys.argv)), sys.argv[1:]
def run(name):
    libc.prctl(15, name.encode(), 0, 0, 0)  # PR_SET_NAME
    ready.wait()
    sys.stdin.read()
for name in names:
    threading.Thread(target=run, args=(name,), daemon=True).start()
ready.wait()
print("ready", flush=True)
sys.stdin.read()
"""


def test_the_proc_probe_counts_real_threads_by_the_names_they_gave_themselves():
    names = ["XNIO-1 task-1", "XNIO-1 task-2", "XNIO-1 I/O-1", "vert.x-worker-thread-0"]
    child = subprocess.Popen([sys.executable, "-c", NAMED_THREADS, *names],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n"
        by_undertow = ProcProbe(child.pid, pool_prefix="XNIO-1 task-").read()
        by_vertx = ProcProbe(child.pid, pool_prefix="vert.x-worker-thread-").read()
    finally:
        child.kill()
        child.wait()
    assert by_undertow.threads >= len(names) + 1
    assert (by_undertow.pool_threads, by_vertx.pool_threads) == (2, 1)


# --- CgroupProbe against a real container -------------------------------------------------

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


# --- ExecProbe against a real container ---------------------------------------------------

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
