"""`httplab bench`: wires the plan, its backend, the checks before any load and the run,
and writes results after every server."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from httplab.commands.common import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, finish,
                                     interrupt_on_sigterm, say)
from httplab.manifest import discover
from httplab.outcomes import ServerOutcome
from httplab.paths import LUA_SCRIPT, results_root, servers_dir
from httplab.presentation.publish import write_results
from httplab.results.assemble import assemble
from httplab.run_layout import RAW, RESULTS_JSON
from httplab.results.store import new_run_dir, point_latest, read_results, utc_stamp
from httplab.running.backends.base import Backend
from httplab.running.backend_error import BackendError
from httplab.running.hostinfo import collect_host, usable_cpu_set
from httplab.running.labinfo import lab_commit
from httplab.running.database.base import DatabaseError
from httplab.running.plan import (BenchPlan, make_plan, needs_database, settings_of,
                                  with_database)
from httplab.running.preflight import preflight
from httplab.running.progress import Progress
from httplab.running.runner import Runner


def run_bench(settings: Mapping[str, str], repo: Path, results_dir: Path | None) -> int:
    """The bench the settings (flag -> text, as bench_settings lists them) ask for. A bad
    setting raises PlanError before anything starts."""
    plan = make_plan(settings, discover(servers_dir(repo)), frozenset(usable_cpu_set()))
    interrupt_on_sigterm()
    return bench(plan, make_backend(plan, repo, settings["base-images"]),
                 results_dir or results_root(repo), repo / settings["image"], repo)


def make_backend(plan: BenchPlan, repo: Path, base_images: str) -> Backend:
    if plan.backend == "local":
        from httplab.running.backends.local import LocalBackend

        return LocalBackend(servers_dir(repo), LUA_SCRIPT)
    from httplab.running.backends.docker import DockerBackend

    # HTTPLAB_COMPOSE="docker-compose" picks Compose v1 where both are installed.
    return DockerBackend(repo, base_images, os.environ.get("HTTPLAB_COMPOSE"),
                         topology=plan.topology)


def bench(plan: BenchPlan, backend: Backend, results_root: Path, image: Path, repo: Path) -> int:
    """Runs the plan; results are rewritten after every server, so a crash keeps them."""
    try:
        preflight(plan, backend, results_root)
    except BackendError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    progress = Progress(plan)
    progress.announce(backend.name)
    try:
        backend.prepare(plan.servers)
        if needs_database(plan):
            backend.database.prepare()
    except (BackendError, DatabaseError) as error:
        say(f"error: {error}")
        return EXIT_FAILED
    stamp, commit = utc_stamp(), lab_commit(repo)
    run_dir = new_run_dir(results_root, stamp)
    settings = settings_of(plan)
    engines = backend.engine_records()
    host = collect_host(backend.versions())
    outcomes: list[ServerOutcome] = []

    def server_done(outcome: ServerOutcome) -> None:
        outcomes.append(outcome)
        write_results(assemble(outcomes, with_database(settings, outcomes), host, stamp, commit,
                               engines), run_dir, image)
        point_latest(results_root, run_dir)

    try:
        Runner(backend, plan, run_dir / RAW, progress, server_done).run()
    except KeyboardInterrupt:
        say(f"interrupted; {len(outcomes)} finished server(s) kept in {run_dir}")
        return EXIT_INTERRUPTED
    return finish(read_results(run_dir / RESULTS_JSON), run_dir, image)

