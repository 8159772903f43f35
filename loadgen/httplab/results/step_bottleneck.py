"""Which CPU limited one fixed-rate step (make latency): the bench's rule of
results/bottleneck.py, on the step's own figures, with the load tool in wrk's place. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, RateStep
from httplab.results.bottleneck import (Bottleneck, CpuFigures, cpuset_size, judge_known,
                                        server_machine_cores)

LOAD_TOOL = "load tool"  # how the figures name it when the run did not record the tool


def load_tool_name(result: BenchResult) -> str:
    """'oha 1.16.0' -> 'oha'."""
    tool = result.latency.tool if result.latency else None
    return tool.split()[0] if tool else LOAD_TOOL


def step_cpu_figures(step: RateStep, result: BenchResult) -> CpuFigures | None:
    """The step's cores, with what its settings and host let each side use; None when the
    step was not sampled or the host's cores are unknown."""
    host_cores = server_machine_cores(result)
    usage, settings = step.resources, result.settings
    if usage is None or not host_cores:
        return None
    server_limit = cpuset_size(settings.server_cpus if settings else None) or host_cores
    tool_limit = cpuset_size(settings.loadgen_cpus if settings else None) or host_cores
    return CpuFigures(usage.cpu_cores, server_limit, usage.loadgen_cores, tool_limit,
                      usage.host_busy_cores, host_cores, tool=load_tool_name(result))


def step_bottleneck(step: RateStep, result: BenchResult) -> Bottleneck:
    return judge_known(step_cpu_figures(step, result), "step")
