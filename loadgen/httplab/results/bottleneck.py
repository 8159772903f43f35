"""Which CPU limited a cell: the server's, the database's, the load generator's, the shared
CPUs of them all, or none (then latency or the connection count bound the result). Pure.

The rule, in order, with SATURATED = 90 %:
1. unknown: the server's or the host's CPU use was not measured;
2. server: the server used at least 90 % of the CPUs it may use (its cpuset, or every core);
3. database: the database (db and queries workloads) used at least 90 % of the CPUs it may
   use: every core of the machine it runs on, this one or SERVER_HOST's, as it runs on the
   server's engine unpinned;
4. loadgen: wrk used at least 90 % of what it may use (its threads, within its cpuset);
5. shared: none alone, but together they kept at least 90 % of the host's cores busy (the
   database's CPU is in the host's busy cores too);
6. none of them.
With wrk on other machines (LOADGEN_HOSTS), whose CPU this machine cannot see, only
rules 2 and 3 apply against the server machine's cores; otherwise the verdict is unknown.
A cell limited by the database, wrk or the shared CPUs understates the framework: it gets a
warning saying so and what to do. Whatever the verdict, its figures end with what the host
did beside the run when that can explain it (results/host_load.py: other work, stalls)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from httplab.model import BenchResult, Cell, CellWarning, HostStalls, ResourceUsage, WarningKind
from httplab.results.foreign_cpu import cell_foreign_cores
from httplab.results.host_load import host_load_notes, longest_stall
from httplab.results.stability import cell_name
from httplab.results.stats import median_of_known

SATURATED = 0.9
ADVICE = ("the figure understates the server: pin wrk and the server to separate CPUs "
          "(SERVER_CPUS=1 LOADGEN_CPUS=0 on 2 cores) or run wrk on another machine")
LOADGEN_CAUSE = f"wrk used at least {SATURATED:.0%} of the CPUs it may use"
SHARED_CAUSE = (f"Neither wrk nor the server used {SATURATED:.0%} of the CPUs it may use, but "
                f"together they kept at least {SATURATED:.0%} of the host's cores busy")
SHARED_DATABASE_CAUSE = (f"Neither wrk, the server nor the database used {SATURATED:.0%} of the "
                         f"CPUs it may use, but together they kept at least {SATURATED:.0%} of "
                         "the host's cores busy")
DATABASE_ADVICE = ("the figure understates the framework: to compare frameworks on it, give the "
                   "database CPUs of its own (a host with more cores than the server and wrk "
                   "need), or compare the server's CPU per request instead")
DATABASE_CAUSE = (f"The database used at least {SATURATED:.0%} of the CPUs it may use (every "
                  "core of the server's machine): the database, not the framework, set the "
                  "figure")
FIGURES_WHERE = " (each cell's figures are under \"Where the CPU went\")"


class Limit(str, Enum):
    SERVER = "server"
    DATABASE = "database"
    LOADGEN = "loadgen"
    SHARED = "shared"
    NONE = "none"
    UNKNOWN = "unknown"


# Each verdict in words, as the warnings and the database table say it.
LIMIT_WORDS = {
    Limit.SERVER: "limited by the server's CPU",
    Limit.DATABASE: "limited by the database's CPU",
    Limit.LOADGEN: "limited by the load generator",
    Limit.SHARED: "limited by the CPUs wrk and the server share",
    Limit.NONE: "no CPU saturated (latency or the connections bound it)",
    Limit.UNKNOWN: "unknown: CPU figures missing",
}
SHARED_DATABASE_WORDS = "limited by the CPUs wrk, the server and the database share"


@dataclass(frozen=True)
class Bottleneck:
    limit: Limit
    detail: str  # the figures behind the verdict
    with_database: bool = False  # the database's CPU was measured beside the server's

    @property
    def understates_server(self) -> bool:
        return self.limit in (Limit.DATABASE, Limit.LOADGEN, Limit.SHARED)

    @property
    def words(self) -> str:
        """The verdict in words: "limited by the database's CPU"."""
        if self.limit is Limit.SHARED and self.with_database:
            return SHARED_DATABASE_WORDS
        return LIMIT_WORDS[self.limit]


@dataclass(frozen=True)
class CpuFigures:
    """Cores used (CPU seconds per second) and what each may use, for one cell."""

    server: float | None
    server_limit: float
    loadgen: float | None
    loadgen_limit: float
    host_busy: float | None
    host_cores: float
    loadgen_elsewhere: bool = False  # wrk ran on other machines
    tool: str = "wrk"  # the load generator, as the verdict's figures name it
    database: float | None = None  # the database's cores; None without one, or unmeasured
    foreign: float | None = None  # the host's busy cores no part of the run used
    stall: HostStalls | None = None  # the stall meter's record of the longest stall

    @property
    def database_saturated(self) -> bool:
        """The database may use every core of the server's machine (host_cores)."""
        return self.database is not None and self.database >= SATURATED * self.host_cores

    @property
    def database_detail(self) -> str:
        """", database 1.10 of 2" when it was measured; empty otherwise."""
        return "" if self.database is None else (f", database {self.database:.2f} of "
                                                 f"{self.host_cores:g}")


def judge(cpu: CpuFigures) -> Bottleneck:
    if cpu.loadgen_elsewhere and cpu.server is not None:
        return _judge_server_alone(cpu)
    if cpu.server is None or cpu.host_busy is None:
        return Bottleneck(Limit.UNKNOWN, "the server's or the host's CPU use was not measured")
    detail = (f"server {cpu.server:.2f} of {cpu.server_limit:g} cores{cpu.database_detail}, "
              f"{cpu.tool} {_cores(cpu.loadgen)} of {cpu.loadgen_limit:g}, host busy "
              f"{cpu.host_busy:.2f} of {cpu.host_cores:g}")
    return Bottleneck(_limit(cpu), detail + _host_notes(cpu), cpu.database is not None)


def _host_notes(cpu: CpuFigures) -> str:
    return host_load_notes(cpu.foreign, cpu.host_cores, cpu.stall)


def _limit(cpu: CpuFigures) -> Limit:
    """Rules 2-6, on measured server and host figures."""
    if cpu.server >= SATURATED * cpu.server_limit:
        return Limit.SERVER
    if cpu.database_saturated:
        return Limit.DATABASE
    if cpu.loadgen is not None and cpu.loadgen >= SATURATED * cpu.loadgen_limit:
        return Limit.LOADGEN
    if cpu.host_busy >= SATURATED * cpu.host_cores:
        return Limit.SHARED
    return Limit.NONE


def _judge_server_alone(cpu: CpuFigures) -> Bottleneck:
    detail = (f"server {cpu.server:.2f} of {cpu.server_limit:g} cores{cpu.database_detail}; "
              "wrk ran on other machines, whose CPU is not measured here")
    limit = (Limit.SERVER if cpu.server >= SATURATED * cpu.server_limit
             else Limit.DATABASE if cpu.database_saturated else Limit.UNKNOWN)
    return Bottleneck(limit, detail + _host_notes(cpu), cpu.database is not None)


def _cores(value: float | None) -> str:
    return "?" if value is None else f"{value:.2f}"


def cpuset_size(cpus: str | None) -> int | None:
    """'0-3,6' -> 5; None or '' -> None (every CPU)."""
    if not cpus:
        return None
    size = 0
    for part in cpus.split(","):
        low, _, high = part.partition("-")
        size += int(high or low) - int(low) + 1
    return size


def cell_cpu_figures(cell: Cell, result: BenchResult) -> CpuFigures | None:
    """The medians of a cell's runs, with the limits its settings and host put on them."""
    settings = result.settings
    host_cores = server_machine_cores(result)
    if not cell.resources or not host_cores:
        return None
    server_limit = cpuset_size(settings.server_cpus if settings else None) or host_cores
    loadgen_cpus = cpuset_size(settings.loadgen_cpus if settings else None) or host_cores
    return CpuFigures(
        _median(cell.resources, "cpu_cores"), server_limit,
        _median(cell.resources, "loadgen_cores"), min(cell.threads, loadgen_cpus),
        _median(cell.resources, "host_busy_cores"), host_cores,
        bool(settings and settings.loadgen_hosts),
        database=median_of_known(database_usage(usage, "cpu_cores") for usage in cell.resources),
        foreign=cell_foreign_cores(cell), stall=longest_stall(cell.host_stalls))


def database_usage(usage: ResourceUsage, field: str) -> float | None:
    """One figure of the database's usage beside the server's; None without a database."""
    return None if usage.database is None else getattr(usage.database, field)


def server_machine_cores(result: BenchResult) -> int | None:
    """This machine's cores, or those of the SERVER_HOST engine's machine."""
    if result.settings is None or result.settings.server_host is None:
        return result.host.cores
    return next((engine.cores for engine in result.engines if engine.role == "server"), None)


def cell_bottleneck(cell: Cell, result: BenchResult) -> Bottleneck:
    return judge_known(cell_cpu_figures(cell, result), "cell")


def judge_known(cpu: CpuFigures | None, measured: str) -> Bottleneck:
    """The verdict, or "unknown" when the figures of what was measured (a cell, a step)
    are missing."""
    if cpu is None:
        return Bottleneck(Limit.UNKNOWN, f"no CPU figures for this {measured}, or the host's "
                                         "cores are unknown")
    return judge(cpu)


def bottleneck_warnings(result: BenchResult) -> tuple[CellWarning, ...]:
    """One warning per measured cell whose figure a CPU other than the server's limited
    (the database's, wrk's or the shared CPUs)."""
    warnings = []
    for cell in result.cells:
        verdict = cell_bottleneck(cell, result)
        if cell.runs and verdict.understates_server:
            warnings.append(_warning(cell_name(cell, result.label(cell.server)), verdict))
    return tuple(warnings)


# Each verdict that understates the server: its warning's kind, cause and advice.
WARNINGS = {
    Limit.DATABASE: (WarningKind.DATABASE, DATABASE_CAUSE, DATABASE_ADVICE),
    Limit.LOADGEN: (WarningKind.LOADGEN, LOADGEN_CAUSE, ADVICE),
    Limit.SHARED: (WarningKind.SHARED_CPUS, SHARED_CAUSE, ADVICE),
}


def _warning(name: str, verdict: Bottleneck) -> CellWarning:
    kind, cause, advice = WARNINGS[verdict.limit]
    if verdict.limit is Limit.SHARED and verdict.with_database:
        cause = SHARED_DATABASE_CAUSE
    return CellWarning(kind, f"{name}: {verdict.words} ({verdict.detail}); {advice}",
                       name, cause + FIGURES_WHERE, advice=advice)


def _median(usages: tuple[ResourceUsage, ...], field: str) -> float | None:
    return median_of_known(getattr(usage, field) for usage in usages)
