"""Which CPU limited a cell: the server's, the load generator's, the shared CPUs of both,
or none (then latency or the connection count bound the result). Pure.

The rule, in order, with SATURATED = 90 %:
1. unknown: the server's or the host's CPU use was not measured;
2. server: the server used at least 90 % of the CPUs it may use (its cpuset, or every core);
3. loadgen: wrk used at least 90 % of what it may use (its threads, within its cpuset);
4. shared: neither alone, but together they kept at least 90 % of the host's cores busy;
5. none of them.
With wrk on other machines (LOADGEN_HOSTS), whose CPU this machine cannot see, only
rule 2 applies against the server machine's cores; otherwise the verdict is unknown."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from httplab.model import BenchResult, Cell, CellWarning, ResourceUsage, WarningKind
from httplab.results.stability import cell_name
from httplab.results.stats import median_of_known

SATURATED = 0.9
ADVICE = ("the figure understates the server: pin wrk and the server to separate CPUs "
          "(SERVER_CPUS=1 LOADGEN_CPUS=0 on 2 cores) or run wrk on another machine")
LOADGEN_CAUSE = f"wrk used at least {SATURATED:.0%} of the CPUs it may use"
SHARED_CAUSE = (f"Neither wrk nor the server used {SATURATED:.0%} of the CPUs it may use, but "
                f"together they kept at least {SATURATED:.0%} of the host's cores busy")
FIGURES_WHERE = " (each cell's figures are under \"Where the CPU went\")"


class Limit(str, Enum):
    SERVER = "server"
    LOADGEN = "loadgen"
    SHARED = "shared"
    NONE = "none"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Bottleneck:
    limit: Limit
    detail: str  # the figures behind the verdict

    @property
    def understates_server(self) -> bool:
        return self.limit in (Limit.LOADGEN, Limit.SHARED)


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


def judge(cpu: CpuFigures) -> Bottleneck:
    if cpu.loadgen_elsewhere and cpu.server is not None:
        return _judge_server_alone(cpu)
    if cpu.server is None or cpu.host_busy is None:
        return Bottleneck(Limit.UNKNOWN, "the server's or the host's CPU use was not measured")
    detail = (f"server {cpu.server:.2f} of {cpu.server_limit:g} cores, {cpu.tool} "
              f"{_cores(cpu.loadgen)} of {cpu.loadgen_limit:g}, host busy "
              f"{cpu.host_busy:.2f} of {cpu.host_cores:g}")
    if cpu.server >= SATURATED * cpu.server_limit:
        return Bottleneck(Limit.SERVER, detail)
    if cpu.loadgen is not None and cpu.loadgen >= SATURATED * cpu.loadgen_limit:
        return Bottleneck(Limit.LOADGEN, detail)
    if cpu.host_busy >= SATURATED * cpu.host_cores:
        return Bottleneck(Limit.SHARED, detail)
    return Bottleneck(Limit.NONE, detail)


def _judge_server_alone(cpu: CpuFigures) -> Bottleneck:
    detail = (f"server {cpu.server:.2f} of {cpu.server_limit:g} cores; wrk ran on other "
              "machines, whose CPU is not measured here")
    if cpu.server >= SATURATED * cpu.server_limit:
        return Bottleneck(Limit.SERVER, detail)
    return Bottleneck(Limit.UNKNOWN, detail)


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
        bool(settings and settings.loadgen_hosts))


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
    """One warning per measured cell whose figure a CPU other than the server's limited."""
    warnings = []
    for cell in result.cells:
        verdict = cell_bottleneck(cell, result)
        if cell.runs and verdict.understates_server:
            warnings.append(_warning(cell_name(cell, result.label(cell.server)), verdict))
    return tuple(warnings)


def _warning(name: str, verdict: Bottleneck) -> CellWarning:
    loadgen = verdict.limit is Limit.LOADGEN
    limited_by = "the load generator" if loadgen else "the CPUs wrk and the server share"
    return CellWarning(
        WarningKind.LOADGEN if loadgen else WarningKind.SHARED_CPUS,
        f"{name}: limited by {limited_by} ({verdict.detail}); {ADVICE}",
        name, (LOADGEN_CAUSE if loadgen else SHARED_CAUSE) + FIGURES_WHERE, advice=ADVICE)


def _median(usages: tuple[ResourceUsage, ...], field: str) -> float | None:
    return median_of_known(getattr(usage, field) for usage in usages)
