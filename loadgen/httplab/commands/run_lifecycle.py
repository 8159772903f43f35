"""The one lifecycle of a run, make bench's and make latency's alike: the checks before any
load, the announcement, the servers (and their database) prepared, the run directory and
what is recorded of the host and the engines before any load, the run itself with the
results rewritten after every server (so a crash or Ctrl-C keeps them), the raw files
archived once it ended (results/run_archiving.py; plain while it goes on, and after Ctrl-C),
and the closing summary. What a run measures and how its results are assembled is its RunKindSteps'."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from httplab.checking.url_check import UrlCheckError
from httplab.commands.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, finish, say
from httplab.model import AutoRepeat, BenchResult, EngineRecord, HostInfo
from httplab.outcomes import ServerOutcome
from httplab.paths import LUA_SCRIPT, results_root, servers_dir
from httplab.presentation.publish import write_results
from httplab.results.adaptive_rounds import calibrated_expectation
from httplab.results.calibration import newest_calibration
from httplab.results.run_archiving import archive_run, mark_under_way
from httplab.results.store import (new_run_dir, point_latest, read_results,
                                   results_newest_first, utc_stamp)
from httplab.run_layout import RAW, RESULTS_JSON
from httplab.running.backend_error import BackendError
from httplab.running.backends.base import Backend
from httplab.running.database.base import DatabaseError
from httplab.running.hostinfo import collect_host
from httplab.running.io_uring.probe import asks_io_uring
from httplab.running.labinfo import lab_commit
from httplab.running.plan import BenchPlan, needs_database
from httplab.running.progress import Progress, calibrated_line
from httplab.running.run_context import RunContext
from httplab.running.stall_metering import host_stall_meter
from httplab.running.tls.for_run import run_tls_for

ServerDone = Callable[[ServerOutcome], None]


@dataclass(frozen=True)
class Destination:
    """Where a run goes: its results folder, its headline chart (None: charts in its page
    only), and the lab it ran from."""

    results_root: Path
    image: Path | None
    repo: Path

    @classmethod
    def of(cls, settings: Mapping[str, str], repo: Path, results_dir: Path | None
           ) -> Destination:
        return cls(results_dir or results_root(repo), repo / settings["image"], repo)


@dataclass
class RunRecord:
    """A run under way: its directory, what was recorded before any load, and the servers
    finished so far."""

    run_dir: Path
    stamp: str
    commit: str | None
    host: HostInfo
    engines: tuple[EngineRecord, ...]
    versions: Mapping[str, str | None]
    outcomes: list[ServerOutcome] = field(default_factory=list)


class RunKindSteps(Protocol):
    """What one kind of run brings to the lifecycle."""

    plan: BenchPlan

    def check(self, backend: Backend, results_root: Path) -> None:
        """What must hold before any load; raises BackendError or UrlCheckError."""

    def new_progress(self) -> Progress:
        """The run's progress, its clock started once the checks passed."""

    def starts_servers(self) -> bool:
        """Whether the lab starts the servers (not a server the user started)."""

    def run(self, context: RunContext, record: RunRecord, server_done: ServerDone) -> None:
        """Every server measured; server_done after each."""

    def result(self, record: RunRecord) -> BenchResult:
        """The results of the servers finished so far."""


def make_backend(plan: BenchPlan, repo: Path, base_images: str) -> Backend:
    if plan.backend == "local":
        from httplab.running.backends.local import LocalBackend

        return LocalBackend(servers_dir(repo), LUA_SCRIPT)
    from httplab.running.backends.docker import DockerBackend

    # HTTPLAB_COMPOSE="docker-compose" picks Compose v1 where both are installed.
    return DockerBackend(repo, base_images, os.environ.get("HTTPLAB_COMPOSE"),
                         topology=plan.topology)


def run_lifecycle(steps: RunKindSteps, backend: Backend, where: Destination) -> int:
    """Runs one kind of run from the checks to the closing summary; its exit code."""
    try:
        steps.check(backend, where.results_root)
    except (BackendError, UrlCheckError) as error:
        say(f"error: {error}")
        return EXIT_USAGE
    progress = steps.new_progress()
    progress.announce(backend.name)
    try:
        _prepare(steps, backend)
    except (BackendError, DatabaseError) as error:
        say(f"error: {error}")
        return EXIT_FAILED
    with run_tls_for(steps.plan.applicable if steps.starts_servers() else ()) as tls:
        try:
            backend.use_tls(tls)
        except BackendError as error:
            say(f"error: {error}")
            return EXIT_FAILED
        record = _open_run(backend, where, steps.plan.keep_unmeasured)
        _expect_rounds(steps.plan.auto_repeat, record.host, where.results_root, progress)
        context = RunContext(backend, steps.plan, record.run_dir / RAW, progress,
                             host_stall_meter(backend.load_generators, steps.plan.loadgen_cpus,
                                              steps.plan.server_cpus,
                                              steps.plan.server_host is None),
                             tls=tls)
        try:
            steps.run(context, record, lambda outcome: _server_done(steps, record, where,
                                                                     outcome))
        except KeyboardInterrupt:
            say(f"interrupted; {len(record.outcomes)} finished server(s) kept in "
                f"{record.run_dir}")
            return EXIT_INTERRUPTED
    return finish(_archived(record.run_dir, steps.plan.keep_unmeasured), record.run_dir,
                  where.image)


def _archived(run_dir: Path, keep_unmeasured: bool) -> BenchResult:
    """The ended run's raw files archived, and its results (charts drawn already) rewritten
    to say so and to link the archive's members."""
    result = replace(read_results(run_dir / RESULTS_JSON),
                     raw_archive=archive_run(run_dir, keep_unmeasured))
    write_results(result, run_dir, None)
    return result


def _prepare(steps: RunKindSteps, backend: Backend) -> None:
    """The servers' images or jars, io_uring's one try when a server is asked to run on
    it (it needs the Netty image or jar), and the database's, before any load."""
    if not steps.starts_servers():
        return
    backend.prepare(steps.plan.applicable)
    if asks_io_uring(steps.plan.applicable):
        say(backend.try_io_uring(steps.plan.applicable))
    if needs_database(steps.plan):
        backend.database.prepare()


def _expect_rounds(rule: AutoRepeat | None, host: HostInfo, results_root: Path,
                   progress: Progress) -> None:
    """REPEAT=auto: what the host's newest calibration expects, said before any load."""
    if rule is not None:
        calibration = newest_calibration(results_newest_first(results_root), host)
        progress.say(calibrated_line(calibrated_expectation(calibration, rule), rule))


def _open_run(backend: Backend, where: Destination, keep_unmeasured: bool) -> RunRecord:
    """The run's directory, marked under way, and the host, the engines and the tools as
    they are now."""
    stamp = utc_stamp()
    run_dir = new_run_dir(where.results_root, stamp)
    mark_under_way(run_dir, keep_unmeasured)
    engines, versions = backend.engine_records(), backend.versions()
    return RunRecord(run_dir, stamp, lab_commit(where.repo), collect_host(versions), engines,
                     versions)


def _server_done(steps: RunKindSteps, record: RunRecord, where: Destination,
                 outcome: ServerOutcome) -> None:
    """The results rewritten with one more server, and results/latest pointed at them."""
    record.outcomes.append(outcome)
    write_results(steps.result(record), record.run_dir, where.image)
    point_latest(where.results_root, record.run_dir)
