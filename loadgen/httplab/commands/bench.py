"""`httplab bench`: wires the plan, its backend, the checks before any load and the run
of wrk cells into the run lifecycle, which writes results after every server."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from httplab.commands.auto_rounds import auto_rounds
from httplab.commands.common import interrupt_on_sigterm
from httplab.commands.run_lifecycle import (Destination, RunRecord, ServerDone, make_backend,
                                            run_lifecycle)
from httplab.manifest import discover
from httplab.model import BenchResult
from httplab.paths import servers_dir
from httplab.results.assemble import assemble
from httplab.running.backends.base import Backend
from httplab.running.hostinfo import usable_cpu_set
from httplab.running.plan import (BenchPlan, make_plan, settings_of, with_database,
                                  with_rounds_run)
from httplab.running.preflight import preflight
from httplab.running.progress import Progress
from httplab.running.run_context import RunContext
from httplab.running.runner import Runner
from httplab.running.wrk_cells import WrkCells


def run_bench(settings: Mapping[str, str], repo: Path, results_dir: Path | None) -> int:
    """The bench the settings (flag -> text, as bench_settings lists them) ask for. A bad
    setting raises PlanError before anything starts."""
    plan = make_plan(settings, discover(servers_dir(repo)), frozenset(usable_cpu_set()))
    interrupt_on_sigterm()
    return run_lifecycle(BenchSteps(plan), make_backend(plan, repo, settings["base-images"]),
                         Destination.of(settings, repo, results_dir))


def bench(plan: BenchPlan, backend: Backend, results_root: Path, image: Path, repo: Path) -> int:
    """Runs the plan; results are rewritten after every server, so a crash keeps them."""
    return run_lifecycle(BenchSteps(plan), backend, Destination(results_root, image, repo))


class BenchSteps:
    """make bench in the run lifecycle: wrk cells on every server the lab starts."""

    def __init__(self, plan: BenchPlan):
        self.plan = plan

    def check(self, backend: Backend, results_root: Path) -> None:
        preflight(self.plan, backend, results_root)

    def new_progress(self) -> Progress:
        return Progress(self.plan)

    def starts_servers(self) -> bool:
        return True

    def run(self, context: RunContext, record: RunRecord, server_done: ServerDone) -> None:
        another_round = auto_rounds(self.plan.auto_repeat, lambda: self.result(record),
                                    context.progress)
        Runner(context, WrkCells(context), server_done, another_round).run()

    def result(self, record: RunRecord) -> BenchResult:
        settings = with_database(settings_of(self.plan), record.outcomes)
        return assemble(record.outcomes, with_rounds_run(settings, record.outcomes),
                        record.host, record.stamp, record.commit, record.engines)
