"""Which CPU limited one fixed-rate step (make latency): the bench's rule of
results/bottleneck.py, on the step's own figures (its foreign CPU and the host's stalls
among them), with the load tool in wrk's place. Pure."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import BenchResult, RateStep
from httplab.results.bottleneck import Bottleneck, CpuFigures, judge_known, server_machine_cores
from httplab.results.host_load import longest_stall
from httplab.results.latency_steps import step_rules

LOAD_TOOL = "load tool"  # how the figures name it when the run did not record the tool


def load_tool_name(result: BenchResult) -> str:
    """'oha 1.16.0' -> 'oha'."""
    tool = result.latency.tool if result.latency else None
    return tool.split()[0] if tool else LOAD_TOOL


def step_cpu_figures(step: RateStep, result: BenchResult) -> CpuFigures | None:
    """The step's cores, with what its settings and host let each side use; None when the
    step was not sampled or the host's cores are unknown."""
    host_cores = server_machine_cores(result)
    if step.resources is None or not host_cores or result.latency is None:
        return None
    rules = step_rules(result.latency, result.settings, host_cores)
    return replace(rules.cpu_figures(step.resources), tool=load_tool_name(result),
                   stall=longest_stall((step.host_stalls,)))


def step_bottleneck(step: RateStep, result: BenchResult) -> Bottleneck:
    return judge_known(step_cpu_figures(step, result), "step")
