"""`httplab latency`: wires the latency plan, its backend, the checks before any load and
the fixed-rate runs (the search, then the common-rate cost pass) into the run lifecycle,
which writes results after every server."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from httplab.checking.url_check import check_answers
from httplab.commands.auto_rounds import auto_rounds, fixed_rounds
from httplab.commands.common import interrupt_on_sigterm
from httplab.commands.run_lifecycle import (Destination, RunRecord, ServerDone, make_backend,
                                            run_lifecycle)
from httplab.manifest import discover
from httplab.model import (BenchResult, LatencyResult, RateStep, RunKind, ServerRecord,
                           Settings, StepPurpose)
from httplab.outcomes import StepOutcome
from httplab.paths import servers_dir
from httplab.results.assemble import assemble_latency, record_of_manifest
from httplab.results.adaptive_rounds import ruled_metric
from httplab.results.latency_steps import StepRules, read_step, step_rules
from httplab.results.paired_ratio import MIN_ROUNDS
from httplab.results.variants import ComparedMetric
from httplab.running.backends.base import Backend
from httplab.running.hostinfo import usable_cpu_set
from httplab.running.latency_plan import LatencyPlan, make_latency_plan
from httplab.running.latency_progress import LatencyProgress
from httplab.running.plan import settings_of, with_database, with_rounds_run
from httplab.running.preflight import preflight
from httplab.running.rate_search import RateSpec
from httplab.running.rate_series import URL_SERVER, RateSeries, Series
from httplab.running.run_context import RunContext
from httplab.running.runner import AnotherRound, Runner


def run_latency(settings: Mapping[str, str], repo: Path, results_dir: Path | None) -> int:
    """The latency run the settings ask for; PlanError on a bad setting, before anything."""
    plan = make_latency_plan(settings, discover(servers_dir(repo)), frozenset(usable_cpu_set()))
    interrupt_on_sigterm()
    backend = make_backend(plan.bench, repo, settings["base-images"])
    return run_lifecycle(LatencySteps(plan), backend, Destination.of(settings, repo, results_dir))


def latency(plan: LatencyPlan, backend: Backend, results_root: Path, image: Path,
            repo: Path) -> int:
    return run_lifecycle(LatencySteps(plan), backend, Destination(results_root, image, repo))


class LatencySteps:
    """make latency in the run lifecycle: the search (or the list) on every server, then the
    common-rate cost pass; each step read and judged once."""

    def __init__(self, plan: LatencyPlan):
        self.latency, self.plan = plan, plan.bench
        self.base = LatencyResult(plan.slo_p99_us, _rates_text(plan), (), (), plan.cost_rate,
                                  "COST_RATE" if plan.cost_rate is not None else "",
                                  plan.url, None, float(plan.step_warmup_s))
        self.rules: StepRules | None = None  # the run's, once its host is known
        self.steps_read: dict[StepOutcome, RateStep] = {}

    def check(self, backend: Backend, results_root: Path) -> None:
        backend.check_oha()
        if self.latency.url:
            check_answers(self.latency.url)
        else:
            preflight(self.plan, backend, results_root)

    def new_progress(self) -> LatencyProgress:
        return LatencyProgress(self.latency)

    def starts_servers(self) -> bool:
        return not self.latency.url

    def run(self, context: RunContext, record: RunRecord, server_done: ServerDone) -> None:
        self.base = replace(self.base, tool=record.versions.get("oha"))
        servers = tuple(record_of_manifest(manifest) for manifest in self.plan.servers)
        self.rules = step_rules(self.base, self._settings(), record.host.cores, servers)
        self._search(context, record, server_done)
        self._cost_pass(context, record, server_done)

    def judge(self, outcome: StepOutcome) -> RateStep:
        """The step read and judged once: the search asks as it ends, the results after
        every server."""
        if outcome not in self.steps_read:
            assert self.rules is not None, "a step judged before the run started"
            self.steps_read[outcome] = read_step(outcome, self.rules)
        return self.steps_read[outcome]

    def result(self, record: RunRecord) -> BenchResult:
        settings = with_database(self._settings(), record.outcomes)
        return assemble_latency(record.outcomes, with_rounds_run(settings, record.outcomes),
                                record.host, record.stamp, record.commit, self.base, self.judge,
                                record.engines)

    def _settings(self) -> Settings:
        """The bench plan's settings, with how the fixed-rate runs kept their connections."""
        return replace(settings_of(self.plan), keepalive=self.latency.keepalive)

    def _search(self, context: RunContext, record: RunRecord,
                server_done: ServerDone) -> None:
        plan = self.latency
        purpose = StepPurpose.SEARCH if plan.rates.auto else StepPurpose.LIST
        series = RateSeries(context, plan, Series(plan.rates, purpose, plan.cost_rate),
                            self.judge)
        if plan.url:
            series.run_url(ServerRecord(URL_SERVER, plan.url, "unknown", "unknown", "unknown",
                                        "unknown", verification="not checked (URL=)"),
                           plan.url, server_done)
        else:
            Runner(context, series, server_done, self._search_rounds(context, record)).run()

    def _cost_pass(self, context: RunContext, record: RunRecord,
                   server_done: ServerDone) -> None:
        """Without COST_RATE: every server again at the lowest of their maxima, so each is
        measured at one rate that all of them held."""
        plan = self.latency
        if plan.cost_rate is not None or plan.url:
            return
        maxima = [rate.value for rate in self.result(record).latency.maxima
                  if rate.value is not None]
        if not maxima:
            context.progress.say("httplab latency: no server held any rate: no common-rate cost "
                              "pass")
            return
        common = min(maxima)
        self.base = replace(self.base, cost_rate=common, cost_rate_source="lowest maximum")
        context.progress.say(f"httplab latency: the cost pass: every server again at {common:g}/s, "
                          f"the lowest of their maxima, after {plan.cost_warmup_s} s unmeasured "
                          "at it")
        series = Series(RateSpec((common,)), StepPurpose.COST, warmup_s=plan.cost_warmup_s)
        Runner(context, RateSeries(context, plan, series, self.judge), server_done,
               self._cost_rounds(context, record)).run()

    def _search_rounds(self, context: RunContext, record: RunRecord) -> AnotherRound | None:
        """REPEAT=auto: the search's rounds by the rule when it measures the rule's figure
        (the maxima; the cost too with COST_RATE), else the fewest an interval needs."""
        rule = self.plan.auto_repeat
        if rule is None:
            return None
        if self._rule_in_cost_pass():
            return fixed_rounds(MIN_ROUNDS)
        return auto_rounds(rule, lambda: self.result(record), context.progress)

    def _cost_rounds(self, context: RunContext, record: RunRecord) -> AnotherRound | None:
        """REPEAT=auto: the cost pass's rounds by the rule when it measures the rule's
        figure, else as many as the search ran (a cost for each round's maximum)."""
        rule = self.plan.auto_repeat
        if rule is None:
            return None
        if self._rule_in_cost_pass():
            return auto_rounds(rule, lambda: self.result(record), context.progress)
        return fixed_rounds(self.result(record).settings.repeat)

    def _rule_in_cost_pass(self) -> bool:
        """The rule narrows the common-rate cost, which the second pass measures (no
        COST_RATE)."""
        rule = self.plan.auto_repeat
        return rule is not None and self.latency.cost_rate is None and \
            ruled_metric(rule, RunKind.LATENCY) is ComparedMetric.COMMON_RATE_COST


def _rates_text(plan: LatencyPlan) -> str:
    """RATES as results.json keeps it: "auto", or the fixed list."""
    return "auto" if plan.rates.auto else ",".join(f"{rate:g}" for rate in plan.rates.fixed)
