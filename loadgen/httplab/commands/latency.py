"""`httplab latency`: wires the latency plan, its backend, the checks before any load, the
fixed-rate runs (the search, then the common-rate cost pass), and writes results after
every server."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from httplab.checking.url_check import UrlCheckError, check_answers
from httplab.commands.bench import make_backend
from httplab.commands.common import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, finish,
                                     interrupt_on_sigterm, say)
from httplab.manifest import discover
from httplab.model import BenchResult, HostInfo, LatencyResult, RateStep, ServerRecord, StepPurpose
from httplab.outcomes import ServerOutcome, StepOutcome
from httplab.paths import results_root, servers_dir
from httplab.presentation.publish import write_results
from httplab.results.assemble import assemble_latency, record_of_manifest
from httplab.results.latency_steps import StepRules, read_step, step_rules
from httplab.results.store import new_run_dir, point_latest, read_results, utc_stamp
from httplab.run_layout import RAW, RESULTS_JSON
from httplab.running.backends.base import Backend
from httplab.running.backend_error import BackendError
from httplab.running.hostinfo import collect_host, usable_cpu_set
from httplab.running.labinfo import lab_commit
from httplab.running.latency_plan import LatencyPlan, make_latency_plan
from httplab.running.latency_progress import LatencyProgress
from httplab.running.latency_runner import URL_SERVER, LatencyRunner, Series
from httplab.running.plan import needs_database, settings_of, with_database
from httplab.running.database.base import DatabaseError
from httplab.running.preflight import preflight
from httplab.running.rate_search import RateSpec


def run_latency(settings: Mapping[str, str], repo: Path, results_dir: Path | None) -> int:
    """The latency run the settings ask for; PlanError on a bad setting, before anything."""
    plan = make_latency_plan(settings, discover(servers_dir(repo)), frozenset(usable_cpu_set()))
    interrupt_on_sigterm()
    backend = make_backend(plan.bench, repo, settings["base-images"])
    return latency(plan, backend, results_dir or results_root(repo), repo / settings["image"],
                   repo)


@dataclass
class LatencyRun:
    """One run's fixed facts, and the outcomes so far (results rewritten after each)."""

    plan: LatencyPlan
    run_dir: Path
    image: Path
    host: HostInfo
    stamp: str
    commit: str | None
    base: LatencyResult
    rules: StepRules
    outcomes: list[ServerOutcome]
    steps_read: dict[StepOutcome, RateStep] = field(default_factory=dict)

    def judge(self, outcome: StepOutcome) -> RateStep:
        """The step read and judged once: the search asks as it ends, the results after
        every server."""
        if outcome not in self.steps_read:
            self.steps_read[outcome] = read_step(outcome, self.rules)
        return self.steps_read[outcome]

    def server_done(self, outcome: ServerOutcome) -> None:
        self.outcomes.append(outcome)
        write_results(self.result(), self.run_dir, self.image)
        point_latest(self.run_dir.parent, self.run_dir)

    def result(self) -> BenchResult:
        return assemble_latency(self.outcomes,
                                with_database(settings_of(self.plan.bench), self.outcomes), self.host,
                                self.stamp, self.commit, self.base, self.judge)


def latency(plan: LatencyPlan, backend: Backend, results_root: Path, image: Path,
            repo: Path) -> int:
    try:
        _preflight(plan, backend, results_root)
    except (BackendError, UrlCheckError) as error:
        say(f"error: {error}")
        return EXIT_USAGE
    progress = LatencyProgress(plan)
    progress.announce(backend.name)
    try:
        if not plan.url:
            backend.prepare(plan.bench.servers)
        if not plan.url and needs_database(plan.bench):
            backend.database.prepare()
    except (BackendError, DatabaseError) as error:
        say(f"error: {error}")
        return EXIT_FAILED
    run = _new_run(plan, backend, results_root, image, repo)
    try:
        _search(run, backend, progress)
        _cost_pass(run, backend, progress)
    except KeyboardInterrupt:
        say(f"interrupted; {len(run.outcomes)} finished server(s) kept in {run.run_dir}")
        return EXIT_INTERRUPTED
    return finish(read_results(run.run_dir / RESULTS_JSON), run.run_dir, image)


def _preflight(plan: LatencyPlan, backend: Backend, results_root: Path) -> None:
    backend.check_oha()
    if plan.url:
        check_answers(plan.url)
    else:
        preflight(plan.bench, backend, results_root)


def _new_run(plan: LatencyPlan, backend: Backend, results_root: Path, image: Path,
             repo: Path) -> LatencyRun:
    stamp, versions = utc_stamp(), backend.versions()
    host = collect_host(versions)
    rates = "auto" if plan.rates.auto else ",".join(f"{rate:g}" for rate in plan.rates.fixed)
    base = LatencyResult(plan.slo_p99_us, rates, (), (), plan.cost_rate,
                         "COST_RATE" if plan.cost_rate is not None else "",
                         plan.url, versions.get("oha"), float(plan.step_warmup_s))
    servers = tuple(record_of_manifest(manifest) for manifest in plan.bench.servers)
    rules = step_rules(base, settings_of(plan.bench), host.cores, servers)
    return LatencyRun(plan, new_run_dir(results_root, stamp), image, host, stamp,
                      lab_commit(repo), base, rules, [])


def _search(run: LatencyRun, backend: Backend, progress: LatencyProgress) -> None:
    plan = run.plan
    purpose = StepPurpose.SEARCH if plan.rates.auto else StepPurpose.LIST
    runner = LatencyRunner(backend, plan, Series(plan.rates, purpose, plan.cost_rate),
                           run.run_dir / RAW, progress, run.judge, run.server_done)
    if plan.url:
        runner.run_url(ServerRecord(URL_SERVER, plan.url, "unknown", "unknown", "unknown",
                                    "unknown", verification="not checked (URL=)"), plan.url)
    else:
        runner.run()


def _cost_pass(run: LatencyRun, backend: Backend, progress: LatencyProgress) -> None:
    """Without COST_RATE: every server again at the lowest of their maxima, so each is
    measured at one rate that all of them held."""
    if run.plan.cost_rate is not None or run.plan.url:
        return
    maxima = [rate.value for rate in run.result().latency.maxima if rate.value is not None]
    if not maxima:
        progress.say("httplab latency: no server held any rate: no common-rate cost pass")
        return
    common = min(maxima)
    run.base = replace(run.base, cost_rate=common, cost_rate_source="lowest maximum")
    progress.say(f"httplab latency: the cost pass: every server again at {common:g}/s, the "
                 f"lowest of their maxima, after {run.plan.cost_warmup_s} s unmeasured at it")
    series = Series(RateSpec((common,)), StepPurpose.COST, warmup_s=run.plan.cost_warmup_s)
    runner = LatencyRunner(backend, run.plan, series, run.run_dir / RAW, progress, run.judge,
                           run.server_done)
    runner.run()
