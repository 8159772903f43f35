"""What a make latency run's results.md adds when its steps were profiled (PROFILE=1):
"Where the time went", one row per profiled step with its samples by layer, its
consistency check and its flame graph (the same columns as make bench's table,
markdown/profile.py), then the itimer note, the steps the check marked or the
profiler failed on, and the reference that is not profiled. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, RateStep
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.markdown.profile import itimer_note, not_profiled, profile_columns
from httplab.presentation.views.latency_figures import cost_steps, latency_servers, rate_steps
from httplab.presentation.wording.latency import rate_text, server_label
from httplab.presentation.views.profile_figures import cell_check, layer_order, run_findings

STEP_PROFILE_INTRO = ("async-profiler ran in each profiled server during each measured step "
                      "only, never during a warm-up: a row per step, each layer's share of "
                      "its samples; which frame counts in which layer, and the check of the "
                      "samples against the CPU the server used, are in docs/method.md, "
                      "\"Profiles\". A step's hottest frames are in its flame graph.")


def step_profile_section(result: BenchResult) -> list[str]:
    """The section's lines, after a blank line; none when no step has a profile."""
    steps = profiled_steps_in_order(result)
    if not steps:
        return []
    lines = ["", "## Where the time went", "", STEP_PROFILE_INTRO, "",
             *_layer_table(result, steps)]
    for block in (itimer_note(steps), _findings(result, steps), not_profiled(result)):
        lines += ["", *block] if block else []
    return lines


def profiled_steps_in_order(result: BenchResult) -> tuple[RateStep, ...]:
    """The steps with a profile, in the order results.md's tables show them: by server,
    its rate steps, then its steps at the common rate."""
    return tuple(step for server in latency_servers(result)
                 for step in (*rate_steps(result, server), *cost_steps(result, server))
                 if step.profile is not None)


def several_workloads(steps: tuple[RateStep, ...]) -> bool:
    return len({step.workload for step in steps}) > 1


def _layer_table(result: BenchResult, steps: tuple[RateStep, ...]) -> list[str]:
    layers, workloads = layer_order(result), several_workloads(steps)
    header = ("Framework", *(("Workload",) if workloads else ()), "Purpose", "Round",
              "Offered (req/s)", "Event", "Samples", *layers, "Check", "Flame graph")
    return markdown_table(header, [
        _head(result, step, workloads) + profile_columns(step, layers, cell_check(step))
        for step in steps])


def _head(result: BenchResult, step: RateStep, workloads: bool) -> tuple[str, ...]:
    """Framework, its workload when the steps have several, purpose, round, offered rate."""
    workload = (step.workload.label,) if workloads else ()
    return (server_label(result, step.server), *workload, step.purpose.value,
            str(step.repeat), rate_text(step.offered_rate))


def step_name(result: BenchResult, step: RateStep) -> str:
    """'Netty (profiled), list step at 20,000 req/s, round 2'."""
    workload = "" if step.workload.is_plaintext else f" {step.workload.label}"
    return (f"{server_label(result, step.server)}{workload}, {step.purpose.value} step at "
            f"{rate_text(step.offered_rate)} req/s, round {step.repeat}")


def _findings(result: BenchResult, steps: tuple[RateStep, ...]) -> list[str]:
    """Each step the check marked or the profiler failed on, with its sentence."""
    return [f"- {step_name(result, step)}, {finding.status}: {finding.text}"
            for step in steps for finding in run_findings(step)]
