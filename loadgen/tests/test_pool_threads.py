"""The blocking pool's live threads, counted by name in the same read of every thread's
status as the context switches: the Name line's parser, the count on fake /proc trees
(names with spaces, a prefix of exactly the kernel's 15 characters, a longer Java name cut
as the kernel cuts it), each probe given a prefix, ExecProbe's script and its output, the
Sampler's maximum, and real threads named by prctl in a child process."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from httplab.running.resources.parse import (CgroupLayout, ResourceSample, ThreadCounts,
                                             count_threads, exec_thread_counts, is_pool_thread,
                                             parse_exec_sample, parse_thread_name)
from httplab.running.resources.probes import CgroupProbe, ExecProbe, ProcProbe, task_counts
from httplab.running.resources.sampler import summarize_samples

from tests.test_resources import (CPU_STAT_V2, EXEC_V2, MEMORY_STAT_V2, V2_FILES, fake_docker,
                                  fake_proc, run_exec_script)


def status(name: str | None, switches: int = 10) -> str:
    """A thread's /proc status: its Name line (none when name is None) and switch counts."""
    named = "" if name is None else f"Name:\t{name}\n"
    return (f"{named}Umask:\t0022\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t{switches}\n"
            "nonvoluntary_ctxt_switches:\t1\n")


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
                                                                 pool)


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
    assert task_counts([7], tmp_path, "boundedElastic-") == ThreadCounts(22, 2, 1)


def test_no_thread_read_means_nothing_counted():
    assert count_threads([], "boundedElastic-") == ThreadCounts(None, None, None)
    assert count_threads([status("boundedElastic-1")[:20]], "boundedElastic-") == ThreadCounts()


def test_a_name_cut_inside_a_utf8_character_is_still_read(tmp_path):
    """Java names are UTF-8, and the kernel cuts them at 15 bytes, wherever that falls."""
    write_tasks(tmp_path, 5, ["java"])
    task = tmp_path / "5" / "task" / "6"
    task.mkdir()
    (task / "status").write_bytes(b"Name:\tboundedElastic\xc3\n" + status(None).encode())
    assert task_counts([5], tmp_path, "boundedElastic") == ThreadCounts(22, 2, 1)


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


# --- ExecProbe: the Name lines its grep prints ---------------------------------------------

# PID 1 is the JVM, 57 the exec'd shell and 63 its grep, which the last line names; the
# shell's thread is named like a pool thread here, to show that it is left out.
EXEC_NAMED = EXEC_V2.replace("1/task/1/status:voluntary", "1/task/1/status:Name:\tjava\n"
                             "1/task/1/status:voluntary").replace(
    "1/task/12/status:voluntary", "1/task/12/status:Name:\tXNIO-1 task-3\n"
    "1/task/12/status:voluntary").replace(
    "57/task/57/status:voluntary", "57/task/57/status:Name:\tXNIO-1 task-9\n"
    "57/task/57/status:voluntary").replace(
    "@@httplab sampler", "1/task/13/status:Name:\tXNIO-1 task-4\n@@httplab sampler")
AT = 1795404001.25


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
                                                   AT, pool))


def test_exec_thread_counts_group_lines_by_thread_and_leave_out_the_sampler():
    lines = ("7/task/7/status:Name:\tvert.x-worker-t\n"
             "7/task/7/status:voluntary_ctxt_switches:\t5\n"
             "7/task/7/status:nonvoluntary_ctxt_switches:\t1\n"
             "9/task/9/status:Name:\tvert.x-worker-t\n"
             "9/task/9/status:voluntary_ctxt_switches:\t5\n"
             "9/task/9/status:nonvoluntary_ctxt_switches:\t1\n")
    assert exec_thread_counts(lines, frozenset({9}), "vert.x-worker-t") == ThreadCounts(6, 1, 1)


def test_the_exec_script_prints_the_names_the_parser_counts(tmp_path):
    """EXEC_SCRIPT on a fake /proc whose JVM has "java" and "XNIO-1 task-3"."""
    output = run_exec_script(tmp_path, "0::/docker/c0ffee\n", V2_FILES)
    assert "1/task/12/status:Name:\tXNIO-1 task-3\n" in output
    assert "State:" not in output  # still only the lines needed
    version, sample = parse_exec_sample(output, "XNIO-1 task-")
    assert (version, replace(sample, taken_at_s=None)) == (
        2, ResourceSample(0.042951, 236978176 - 41943040, 1044, 2, None, 1))


def test_the_exec_probe_counts_with_its_prefix(tmp_path):
    (tmp_path / "output").write_text(EXEC_NAMED)
    env = fake_docker(tmp_path, f'cat "{tmp_path}/output"')
    assert ExecProbe("c0ffee", env, pool_prefix="XNIO-1 task-").read().pool_threads == 1
    assert ExecProbe("c0ffee", env).read().pool_threads is None


# --- The Sampler's summary -------------------------------------------------------------------


@pytest.mark.parametrize("pools, most", [
    ([0, 4, 10, 7], 10),  # threads started on demand, some ended again
    ([0, 0], 0),  # counted, never started
    ([None, 3, None], 3),  # some reads could not count
    ([None, None], None),  # never counted
], ids=["grew and shrank", "never started", "some not counted", "never counted"])
def test_the_usage_keeps_the_most_pool_threads_of_any_sample(pools, most):
    samples = [(float(at), ResourceSample(1.0 + at, 100, 10, 20, pool_threads=pool))
               for at, pool in enumerate(pools)]
    assert summarize_samples(samples, "/proc").pool_threads_max == most


# --- Real threads, named as a JVM names them ---------------------------------------------------

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
