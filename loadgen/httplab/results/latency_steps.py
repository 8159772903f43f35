"""Turns make latency's raw output into the model: each step's oha JSON, the server's
.resources.json and the stall meter's .stalls.json beside it (and with PROFILE=1 the
profiler's record and collapsed stacks) become a RateStep with its verdict, and the steps
a LatencyResult. The one place that reads a step's files."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from httplab.loadtools.oha.command import oha_connections
from httplab.loadtools.oha.report import OhaReport, parse_oha_json
from httplab.loadtools.json_fields import ToolJsonError
from httplab.model import (PLAINTEXT, LatencyResult, RateStep, ResourceUsage, ServerRecord,
                           Settings, StepPurpose)
from httplab.outcomes import StepOutcome
from httplab.results.bottleneck import CpuFigures, cpuset_size, database_usage
from httplab.results.foreign_cpu import foreign_cores
from httplab.results.collect import (framework_packages_of, read_profile, read_resources,
                                     read_stalls)
from httplab.results.raw_archive import existing_raw_file, raw_file_exists, raw_names, read_raw_text
from httplab.results.step_verdict import error_kinds, judge_step
from httplab.results.sustained import sustained_rates
from httplab.run_layout import parse_step_name, run_dir_of, step_files
from httplab.workloads import workload_of_key


TOOL = "oha"  # the load tool whose output these steps are


@dataclass(frozen=True)
class StepRules:
    """What a step is judged against: the target, and the cores each side may use."""

    slo_p99_us: float
    server_cores: float  # the server's cpuset, or every core of the host
    tool_cores: float  # the load tool's cpuset, or every core of the host
    host_cores: float
    # Each server's (by its key) framework packages, for its steps' profiles' layers.
    framework_packages: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def packages_of(self, server: str) -> tuple[str, ...]:
        return dict(self.framework_packages).get(server, ())

    def cpu_figures(self, usage: ResourceUsage) -> CpuFigures:
        """The step's cores beside what each side may use, as the bottleneck rule takes them."""
        return CpuFigures(usage.cpu_cores, self.server_cores, usage.loadgen_cores,
                          self.tool_cores, usage.host_busy_cores, self.host_cores, tool=TOOL,
                          database=database_usage(usage, "cpu_cores"),
                          foreign=foreign_cores(usage))


def read_step(outcome: StepOutcome, rules: StepRules) -> RateStep:
    """The step as measured and judged; a file that cannot be read fails the step."""
    report, failure = _report(outcome)
    usage = read_resources(outcome.resources_path) if outcome.resources_path else None
    stalls = read_stalls(outcome.stalls_path)
    judgement = judge_step(report, failure, rules.slo_p99_us, outcome.connections,
                           rules.cpu_figures(usage) if usage else None, stalls)
    step = RateStep(outcome.server, outcome.offered_rate, outcome.connections, outcome.purpose,
                    judgement.verdict, judgement.reason, outcome.repeat, resources=usage,
                    out_of_connections=judgement.out_of_connections,
                    raw_file=_relative(outcome.json_path), attempt=outcome.attempt,
                    workload=outcome.workload,
                    profile=read_profile(outcome.profile_path, rules.packages_of(outcome.server),
                                         usage.cpu_seconds if usage else None),
                    host_stalls=stalls)
    if report is None:
        return step
    return _with_figures(step, report)


def _with_figures(step: RateStep, report: OhaReport) -> RateStep:
    return replace(step, duration_s=report.duration_s, achieved_rate=report.achieved_rate_per_s,
                   answered=report.answered, errors=error_kinds(report), latency=report.latency)


def _report(outcome: StepOutcome) -> tuple[OhaReport | None, str | None]:
    if outcome.failure:
        return None, outcome.failure
    path = outcome.json_path
    if path is None or not raw_file_exists(path):
        return None, "the load tool left no output"
    try:
        return parse_oha_json(read_raw_text(path), outcome.offered_rate,
                              str(path)), None
    except ToolJsonError as error:
        return None, str(error)


def _relative(path: Path | None) -> str | None:
    """raw/<step>.oha.json, relative to the run directory."""
    if path is None:
        return None
    return str(path.relative_to(run_dir_of(path.parent)))


def latency_result(steps: tuple[RateStep, ...], base: LatencyResult) -> LatencyResult:
    """`base` (the settings: target, rates, cost rate, URL, tool) with these steps and the
    maxima they give."""
    return replace(base, steps=steps, maxima=sustained_rates(steps))


def purpose_of(cost: bool, rates: str) -> StepPurpose:
    """A step's purpose from its name and the run's RATES."""
    if cost:
        return StepPurpose.COST
    return StepPurpose.SEARCH if rates == "auto" else StepPurpose.LIST


def find_step_outcomes(raw_dir: Path, slo_p99_us: float, rates: str) -> list[StepOutcome]:
    """Every measured step whose oha JSON is in raw_dir, as the runner would have recorded
    it (its connections follow from its rate and the target, as they did when it ran)."""
    outcomes = []
    for name in raw_names(raw_dir):
        stem = parse_step_name(name)
        if stem is None:
            continue
        files = step_files(raw_dir, stem)
        outcomes.append(StepOutcome(
            stem.server, stem.rate, oha_connections(stem.rate, slo_p99_us),
            purpose_of(stem.cost, rates), raw_dir / name,
            existing_raw_file(files.resources), None, stem.round_number,
            stem.attempt, workload_of_key(stem.workload) or PLAINTEXT,
            existing_raw_file(files.profile), existing_raw_file(files.stalls)))
    return outcomes


def rebuilt_steps(earlier: LatencyResult, outcomes: list[StepOutcome],
                  rules: StepRules) -> tuple[RateStep, ...]:
    """The steps read anew from their files, in the order they first ran; a step that
    failed without leaving a file is kept as the run recorded it."""
    steps = [read_step(outcome, rules) for outcome in outcomes]
    found = {_step_key(step) for step in steps}
    kept = [step for step in earlier.steps if step.raw_file is None and _step_key(step) not in found]
    order = {_step_key(step): index for index, step in enumerate(earlier.steps)}
    return tuple(sorted(steps + kept, key=lambda step: order.get(_step_key(step), len(order))))


def _step_key(step: RateStep) -> tuple[str, float, StepPurpose, int, int]:
    return step.server, step.offered_rate, step.purpose, step.repeat, step.attempt


def step_rules(latency: LatencyResult, settings: Settings | None, host_cores: int | None,
               servers: tuple[ServerRecord, ...] = ()) -> StepRules:
    """The rules a run's steps are judged by: its target, and the cores of the host and of
    the server's and the load tool's cpusets (every core when unpinned; 1 when unknown);
    `servers` give each one's framework packages, by which its profiles are read."""
    cores = float(host_cores or 1)
    server = cpuset_size(settings.server_cpus if settings else None)
    tool = cpuset_size(settings.loadgen_cpus if settings else None)
    return StepRules(latency.slo_p99_us, float(server or cores), float(tool or cores), cores,
                     tuple(framework_packages_of(servers).items()))
