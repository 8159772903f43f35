"""results.md of a make latency run: what was run and how latency counts, then three
tables, each after a sentence or two on what its numbers mean: each server's max
sustainable rate, its latency at every offered rate, and what each server charges at one
common rate. With variants (SETTINGS, PROFILE), each against its base (markdown/variants.py);
with PROFILE=1, where each profiled step's time went. Then the servers as run and any
warnings. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, LatencyResult, Settings, StepVerdict
from httplab.presentation.markdown.latency_profile import step_profile_section
from httplab.presentation.markdown.latency_tables import cost_table, maxima_table, steps_table
from httplab.presentation.markdown.servers import run_servers_table
from httplab.presentation.markdown.protocols import protocol_ladder
from httplab.presentation.markdown.transports import latency_transport_table
from httplab.presentation.markdown.variants import variants_section
from httplab.presentation.wording.latency import cost_rate_sentence, slo_text
from httplab.presentation.wording.runtime import host_lines
from httplab.presentation.wording.settings import describe_latency_run
from httplab.results.step_verdict import HELD_SHARE, MAX_ERROR_SHARE

OPEN_MODEL = ("{tool} sends each request when it is due on a fixed schedule at the offered "
              "rate, whether or not the earlier ones were answered, and counts its latency "
              "from that due time: a server that falls behind pays for every request that "
              "waited, as its users would.")


def render_latency_markdown(result: BenchResult) -> str:
    latency = result.latency
    lines = [*_preamble(result, latency), "", "## Max sustainable rate", "",
             _maxima_intro(latency), "", *maxima_table(result),
             "", "## Latency by offered rate", "", _steps_intro(result.settings, latency), "",
             *steps_table(result),
             "", "## The same load, what each framework charges", "", _cost_intro(latency)]
    if latency.cost_rate is not None:
        lines += ["", *cost_table(result), *latency_transport_table(result),
                  *protocol_ladder(result)]
    lines += variants_section(result) + step_profile_section(result)
    if latency.target_url is None:  # a server the user started: the lab knows nothing of it
        lines += run_servers_table(result)
    if result.warnings:
        lines += ["", "Warnings:", "", *(f"- {warning.text}" for warning in result.warnings)]
    return "\n".join(lines) + "\n"


def _preamble(result: BenchResult, latency: LatencyResult) -> list[str]:
    tool = latency.tool or "the load tool"
    run = f"Run: {result.created_utc}; {describe_latency_run(latency, result.settings)}"
    if result.lab_commit:
        run += f"; httplab {result.lab_commit}"
    return [*host_lines(result), "", run, "", OPEN_MODEL.format(tool=tool)]


def _maxima_intro(latency: LatencyResult) -> str:
    return (f"The highest offered rate each server held in every round (the lowest of its "
            f"rounds' maxima): {slo_text(latency.slo_p99_us)}, at most {MAX_ERROR_SHARE:.1%} "
            f"of requests failed and at least {HELD_SHARE:.0%} of the rate answered. "
            "\"At least\": the load tool could not send more before the server broke, so the "
            "server's own limit is higher." + _not_determined_note(latency))


def _not_determined_note(latency: LatencyResult) -> str:
    if not any(rate.host_rounds for rate in latency.maxima):
        return ""
    return (" \"Not determined\": every run of the rate that decided the round was the "
            "host's (it stalled, or other work took its CPUs), so the round says nothing of "
            "the server and is left out of the lowest.")


def _steps_intro(settings: Settings | None, latency: LatencyResult) -> str:
    duration = f" for {settings.duration_s:g} s" if settings else ""
    return (f"Each step offered one rate{duration}; achieved is what was answered a second. "
            "Latency (ms) counts from each request's due time; \"ran out\": every connection "
            "was busy, so requests waited for one, and that wait is in their latency. CPU per "
            "request is the server's CPU time over the requests it answered."
            + _host_steps_note(latency))


def _host_steps_note(latency: LatencyResult) -> str:
    if not any(step.verdict is StepVerdict.HOST for step in latency.steps):
        return ""
    return (f" \"{StepVerdict.HOST.value}\": the host stalled long enough to break the target "
            "by itself (the load tool froze with it, so the step's latency understates), or "
            "other work took a quarter of its cores while the step broke; the rate was run "
            "again and the step counts neither for nor against the server.")


def _cost_intro(latency: LatencyResult) -> str:
    return ("Every server again at one rate they all held, so the costs compare like for like: "
            "the server's CPU time and context switches per answered request, its memory and "
            "threads (lower is cheaper). Limited by: the bench's rule (README, \"Bottlenecks\") "
            f"on the step's CPU figures. {cost_rate_sentence(latency)}")
