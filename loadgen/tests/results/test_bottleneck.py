"""Where the CPU went: the per-request figures from fixed /proc samples, and the bottleneck
rule as a pure function over the cases."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import DatabaseUsage, ResourceUsage, WarningKind
from httplab.results.bottleneck import (ADVICE, DATABASE_ADVICE, DATABASE_CAUSE, FIGURES_WHERE,
                                        LOADGEN_CAUSE, SHARED_CAUSE, SHARED_DATABASE_CAUSE,
                                        CpuFigures, Limit, bottleneck_warnings,
                                        cell_cpu_figures, cpuset_size, judge)
from httplab.results.warning_groups import kinds_in_words, warning_groups
from httplab.running.measure import with_load_figures
from httplab.running.resources.parse import (HostCpu, ResourceSample, SamplingError,
                                             parse_context_switches, parse_host_cpu)
from httplab.running.resources.probes import ProcProbe, task_counts
from httplab.running.resources.sampler import busy_cores, summarize_samples

from tests.results.test_warning_groups import LOADGEN, SERVER, SHARED, result_of, measured

STAT = ("cpu  100 5 50 800 20 3 2 0 0 0\n"
        "cpu0 50 2 25 400 10 1 1 0 0 0\n")
STATUS = "Name:\tjava\nThreads:\t3\nvoluntary_ctxt_switches:\t120\nnonvoluntary_ctxt_switches:\t7\n"


def test_host_cpu_counts_everything_but_idle_and_iowait_as_busy():
    assert parse_host_cpu(STAT) == HostCpu(busy_ticks=160, total_ticks=980)


def test_a_stat_without_the_aggregate_line_is_refused():
    with pytest.raises(SamplingError):
        parse_host_cpu("intr 1 2 3\n")


def test_context_switches_are_voluntary_plus_involuntary():
    assert parse_context_switches(STATUS) == 127
    with pytest.raises(SamplingError):
        parse_context_switches("Name:\tjava\n")


def _fake_tasks(root, pid: int, switches: list[int]) -> None:
    for tid, count in enumerate(switches, start=pid):
        task = root / str(pid) / "task" / str(tid)
        task.mkdir(parents=True)
        (task / "status").write_text(f"voluntary_ctxt_switches:\t{count}\n"
                                     f"nonvoluntary_ctxt_switches:\t1\n")


def test_task_switches_sum_every_thread_of_every_process(tmp_path):
    _fake_tasks(tmp_path, 100, [10, 20, 30])
    _fake_tasks(tmp_path, 200, [5])
    counts = task_counts([100, 200, 999], tmp_path)
    assert (counts.context_switches, counts.threads) == (10 + 20 + 30 + 5 + 4, 4)
    none = task_counts([999], tmp_path)
    assert (none.context_switches, none.threads) == (None, None)


def test_the_proc_probe_reads_switches_and_threads(tmp_path):
    (tmp_path / "42").mkdir()
    (tmp_path / "42" / "stat").write_text("42 (java) S 1 42 42 0 -1 0 0 0 0 0 96 4 0 0 20 0 2\n")
    (tmp_path / "42" / "status").write_text("VmRSS:\t 10 kB\n")
    _fake_tasks(tmp_path, 42, [3, 4])
    sample = ProcProbe(42, proc=tmp_path).read()
    assert (sample.context_switches, sample.threads) == (9, 2)


def test_summary_keeps_cpu_seconds_switches_over_the_window_and_most_threads():
    samples = [(0.0, ResourceSample(10.0, 100, 1000, 20)),
               (1.0, ResourceSample(10.5, 100, 1600, 24)),
               (2.0, ResourceSample(11.2, 100, 2200, 22))]
    usage = summarize_samples(samples, "test")
    assert usage.cpu_seconds == pytest.approx(1.2)
    assert (usage.context_switches, usage.threads_max) == (1200, 24)


def test_switches_are_unknown_when_the_count_went_down():
    samples = [(0.0, ResourceSample(1.0, 1, 500, 9)), (1.0, ResourceSample(2.0, 1, 400, 3))]
    assert summarize_samples(samples).context_switches is None


def test_busy_cores_is_busy_time_over_wall_time():
    assert busy_cores(HostCpu(1000, 5000), HostCpu(1300, 5400), 2.0, 100) == pytest.approx(1.5)
    assert busy_cores(HostCpu(1000, 5000), HostCpu(900, 5400), 2.0, 100) is None


@pytest.mark.parametrize("wrk_cpu, host_busy, expected", [
    (9.0, 1.9, (0.9, "wrk process")),       # the local backend sees wrk itself
    (None, 1.9, (0.7, "host less server")),  # docker: the host's busy CPU less the server's
    (None, None, (None, None)),
])
def test_load_figures_prefer_wrks_own_cpu(wrk_cpu, host_busy, expected):
    usage = with_load_figures(ResourceUsage(cpu_cores=1.2), wrk_cpu, 10.0, host_busy)
    loadgen = None if usage.loadgen_cores is None else round(usage.loadgen_cores, 6)
    assert (loadgen, usage.loadgen_source) == expected
    assert usage.host_busy_cores == host_busy


@pytest.mark.parametrize("server, server_limit, loadgen, loadgen_limit, host, cores, limit", [
    (1.95, 2, 0.05, 2, 2.0, 2, Limit.SERVER),     # the server had every core to itself
    (0.98, 1, 0.60, 1, 1.6, 2, Limit.SERVER),     # pinned apart: the server's one CPU was full
    (0.40, 1, 0.97, 1, 1.4, 2, Limit.LOADGEN),    # pinned apart: wrk's one CPU was full
    (1.05, 2, 0.90, 2, 1.98, 2, Limit.SHARED),    # unpinned on 2 cores: together they fill it
    (0.30, 2, 0.20, 2, 0.55, 2, Limit.NONE),      # idle CPUs: latency or connections bound it
    (None, 2, 0.20, 2, 0.55, 2, Limit.UNKNOWN),
    (1.00, 2, 0.20, 2, None, 2, Limit.UNKNOWN),
    (0.50, 4, None, 4, 3.8, 4, Limit.SHARED),      # wrk unknown, the host still saturated
])
def test_the_bottleneck_rule(server, server_limit, loadgen, loadgen_limit, host, cores, limit):
    verdict = judge(CpuFigures(server, server_limit, loadgen, loadgen_limit, host, cores))
    assert verdict.limit is limit
    if limit is not Limit.UNKNOWN:
        assert f"server {server:.2f} of {server_limit:g} cores" in verdict.detail


@pytest.mark.parametrize("cpus, size", [(None, None), ("", None), ("1", 1), ("0-3,6", 5)])
def test_cpuset_size(cpus, size):
    assert cpuset_size(cpus) == size


@pytest.mark.parametrize("server, limit, expected", [
    (1.9, 2, Limit.SERVER),  # the server machine's CPUs were the limit
    (1.0, 2, Limit.UNKNOWN),  # the generators' CPUs are not seen from here
])
def test_with_wrk_on_other_machines_only_the_server_can_be_judged(server, limit, expected):
    cpu = CpuFigures(server, limit, None, 4, None, limit, loadgen_elsewhere=True)
    verdict = judge(cpu)
    assert verdict.limit is expected
    assert "wrk ran on other machines" in verdict.detail


@pytest.mark.parametrize("cpu, kind, cause", [
    (SERVER, None, None),
    (LOADGEN, WarningKind.LOADGEN, LOADGEN_CAUSE + FIGURES_WHERE),
    (SHARED, WarningKind.SHARED_CPUS, SHARED_CAUSE + FIGURES_WHERE),
])
def test_a_cell_another_cpu_limited_gets_a_warning_of_its_kind(cpu, kind, cause):
    warnings = bottleneck_warnings(result_of(measured("netty", 2, cpu=cpu)))
    assert [(w.kind, w.cell, w.cause, w.detail, w.advice) for w in warnings] == (
        [] if kind is None else [(kind, "Netty t2 c100", cause, "", ADVICE)])


# --- the database (db and queries workloads) --------------------------------------------

@pytest.mark.parametrize("server, database, loadgen, host, limit, words", [
    # the server first: a saturated server is the limit whatever the database used
    (0.95, 1.85, 0.10, 1.99, Limit.SERVER, "limited by the server's CPU"),
    # the database used 90 % of the host's 2 cores: before wrk's and the shared CPUs' rules
    (0.10, 1.85, 0.10, 1.99, Limit.DATABASE, "limited by the database's CPU"),
    (0.10, 1.80, 0.95, 1.99, Limit.DATABASE, "limited by the database's CPU"),
    (0.10, 1.79, 0.95, 1.99, Limit.LOADGEN, "limited by the load generator"),
    # none alone, but the three kept the host busy: the database's CPU is in host busy
    (0.60, 1.10, 0.25, 1.95, Limit.SHARED,
     "limited by the CPUs wrk, the server and the database share"),
    (0.30, 0.50, 0.20, 1.00, Limit.NONE, "no CPU saturated (latency or the connections bound it)"),
    # no database measured: the rule as before
    (0.50, None, 0.40, 1.95, Limit.SHARED, "limited by the CPUs wrk and the server share"),
])
def test_the_database_step_of_the_rule(server, database, loadgen, host, limit, words):
    verdict = judge(CpuFigures(server, 1, loadgen, 1, host, 2, database=database))
    assert (verdict.limit, verdict.words) == (limit, words)
    assert verdict.understates_server is (limit not in (Limit.SERVER, Limit.NONE))


@pytest.mark.parametrize("database, detail", [
    (1.10, "server 0.80 of 2 cores, database 1.10 of 2, wrk 0.30 of 5, host busy 1.95 of 2"),
    (None, "server 0.80 of 2 cores, wrk 0.30 of 5, host busy 1.95 of 2"),
])
def test_the_detail_names_the_databases_cores_when_measured(database, detail):
    assert judge(CpuFigures(0.80, 2, 0.30, 5, 1.95, 2, database=database)).detail == detail


@pytest.mark.parametrize("server, database, expected", [
    (1.9, 0.1, Limit.SERVER),
    (0.4, 1.9, Limit.DATABASE),  # the database shares the server machine's cores
    (0.4, 0.9, Limit.UNKNOWN),
])
def test_with_wrk_elsewhere_the_database_is_judged_on_the_server_machine(server, database,
                                                                        expected):
    verdict = judge(CpuFigures(server, 2, None, 4, None, 2, loadgen_elsewhere=True,
                               database=database))
    assert verdict.limit is expected
    assert verdict.detail.startswith(f"server {server:.2f} of 2 cores, database {database:.2f} of 2;")


def _with_database(cell, *database_cores: float | None):
    usages = tuple(replace(usage, database=None if cores is None else DatabaseUsage(cpu_cores=cores))
                   for usage, cores in zip(cell.resources, database_cores))
    return replace(cell, resources=usages)


def test_a_cell_takes_the_median_of_its_runs_database_cores():
    cell = _with_database(measured("netty", 2, rates=(100.0,) * 3), 1.2, 1.9, None)
    result = result_of(cell)
    assert cell_cpu_figures(result.cells[0], result).database == pytest.approx(1.55)


@pytest.mark.parametrize("cores, cpu, kind, cause, advice", [
    (1.85, (0.10, 0.05, 1.99), WarningKind.DATABASE, DATABASE_CAUSE, DATABASE_ADVICE),
    (1.10, (0.60, 0.25, 1.95), WarningKind.SHARED_CPUS, SHARED_DATABASE_CAUSE, ADVICE),
    (1.10, (1.90, 0.05, 1.95), None, None, None),
])
def test_a_cell_the_database_limited_gets_a_warning_that_names_it(cores, cpu, kind, cause,
                                                                  advice):
    cell = _with_database(measured("netty", 2, cpu=cpu), cores, cores, cores)
    warnings = bottleneck_warnings(result_of(cell))
    assert [(w.kind, w.cause, w.advice) for w in warnings] == (
        [] if kind is None else [(kind, cause + FIGURES_WHERE, advice)])


def test_the_database_warning_says_the_database_not_the_framework_set_the_figure():
    cell = _with_database(measured("netty", 2, cpu=(0.10, 0.05, 1.99)), 1.85, 1.85, 1.85)
    [warning] = bottleneck_warnings(result_of(cell))
    assert warning.text == (
        "Netty t2 c100: limited by the database's CPU (server 0.10 of 2 cores, database 1.85 "
        "of 2, wrk 0.05 of 2, host busy 1.99 of 2); " + DATABASE_ADVICE)
    assert "the database, not the framework, set the figure" in warning.cause


def test_the_closing_line_counts_the_cells_the_database_limited():
    cell = _with_database(measured("netty", 2, cpu=(0.10, 0.05, 1.99)), 1.85, 1.85, 1.85)
    assert kinds_in_words(warning_groups(result_of(cell))) == "1 cell limited by the database's CPU"
