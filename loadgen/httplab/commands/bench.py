"""`httplab bench`: checks the plan can run, runs it, and writes results after every server."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from httplab.results.assemble import assemble
from httplab.running.backends.base import (Backend, BackendError, check_open_files,
                                           ensure_port_free)
from httplab.running.hostinfo import collect_host
from httplab.running.labinfo import lab_commit
from httplab.model import ServerOutcome
from httplab.running.plan import BenchPlan, settings_of
from httplab.running.progress import Progress
from httplab.presentation.publish import write_results
from httplab.results.store import RAW, new_run_dir, point_latest, read_results, utc_stamp
from httplab.running.runner import Runner
from httplab.commands.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, finish, say


def _refusal(plan: BenchPlan, backend: Backend) -> str | None:
    """Why the bench cannot start at all (a missing tool, a busy port), before any load."""
    try:
        backend.check_available()
        if plan.fairness:
            backend.check_fairness_tools()
        check_open_files(max(plan.connections), backend.open_file_limit())
        for port in sorted({server.port for server in plan.servers}):
            if backend.server_engine is None:  # a server here: its port must be free here
                ensure_port_free(port, backend.target_address)
    except BackendError as error:
        return str(error)
    return None


def bench(plan: BenchPlan, backend: Backend, results_root: Path, image: Path,
          cv_threshold: float, repo: Path) -> int:
    """Runs the plan; results are rewritten after every server, so a crash keeps them."""
    refusal = _refusal(plan, backend)
    if refusal:
        say(f"error: {refusal}")
        return EXIT_USAGE
    progress = Progress(plan)
    progress.announce(backend.name)
    try:
        backend.prepare(plan.servers)
    except BackendError as error:
        say(f"error: {error}")
        return EXIT_FAILED
    stamp, commit = utc_stamp(), lab_commit(repo)
    run_dir = new_run_dir(results_root, stamp)
    settings = replace(settings_of(plan, backend.name, cv_threshold, backend.target_address),
                       server_host=backend.server_engine.spec if backend.server_engine else None,
                       loadgen_hosts=tuple(engine.spec for engine in backend.load_generators))
    engines = backend.engine_records()
    host = collect_host(backend.versions())
    outcomes: list[ServerOutcome] = []

    def server_done(outcome: ServerOutcome) -> None:
        outcomes.append(outcome)
        write_results(assemble(outcomes, settings, host, stamp, commit, engines), run_dir, image)
        point_latest(results_root, run_dir)

    try:
        Runner(backend, plan, run_dir / RAW, progress, server_done).run()
    except KeyboardInterrupt:
        say(f"interrupted; {len(outcomes)} finished server(s) kept in {run_dir}")
        return EXIT_INTERRUPTED
    return finish(read_results(run_dir / "results.json"), run_dir, image)
