"""Runs the plan: one server at a time; verify, then for each workload its primer and
warm-up (unmeasured) and its measured wrk runs, interleaved across thread settings when
repeated. A workload whose check failed is not loaded; the server's others still are.

The runner only starts things and records where their raw output went; reading that
output is collect.py's job."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Callable

from httplab.running.backends.base import Backend, StartedServer
from httplab.running.backend_error import BackendError
from httplab.running.database.base import DatabaseError, StartedDatabase
from httplab.results.assemble import record_of_manifest
from httplab.manifest import ServerManifest
from httplab.model import DatabaseRecord, ServerRecord, Workload
from httplab.outcomes import CellOutcome, ServerOutcome
from httplab.running.measure import Measurer, RunOutcome
from httplab.running.plan import BenchPlan, Phase, rotated, target_url
from httplab.running.profiling.agent import ProfilerError, last_agent_error
from httplab.running.profiling.attach import attach
from httplab.running.profiling.control import ServerProfiler
from httplab.running.progress import START_AND_VERIFY_S, Progress
from httplab.checking.conformance import Verification
from httplab.checking.database import verify_database
from httplab.run_layout import database_log, server_log, unmeasured_dir
from httplab.loadtools.wrk.command import WrkRequest


class Runner:
    def __init__(self, backend: Backend, plan: BenchPlan, raw_dir: Path, progress: Progress,
                 on_server_done: Callable[[ServerOutcome], None]):
        self.backend, self.plan, self.raw_dir = backend, plan, raw_dir
        self.progress, self.on_server_done = progress, on_server_done
        self.measurer = Measurer(backend, raw_dir, plan.loadgen_cpus)
        self.database: StartedDatabase | None = None  # the running server's, while it runs
        self.profiler: ServerProfiler | None = None  # PROFILE=1: the running server's

    def requests(self, manifest: ServerManifest, workload: Workload) -> list[WrkRequest]:
        plan = self.plan
        url = target_url(manifest, self.backend.target_address, workload)
        return [WrkRequest(point.threads, point.connections, plan.duration, plan.duration_s, url)
                for point in plan.points]

    def run(self) -> list[ServerOutcome]:
        """Round after round, every server (in a rotated order) is started, warmed up and
        measured once per thread setting, so a host that slows down for a while slows
        every server's runs alike rather than one server's."""
        unmeasured_dir(self.raw_dir).mkdir(parents=True, exist_ok=True)
        outcomes = []
        index = 0
        for round_number in range(1, self.plan.repeat + 1):
            for manifest in rotated(self.plan.servers, round_number):
                index += 1
                outcome = self.run_server(index, manifest, round_number)
                outcomes.append(outcome)
                self.on_server_done(outcome)
        return outcomes

    def log_file(self, manifest: ServerManifest) -> str:
        """raw/<server>.log: where the server's whole output goes, relative to the run."""
        return f"{self.raw_dir.name}/{server_log(manifest.key)}"

    def run_server(self, index: int, manifest: ServerManifest,
                   round_number: int = 1) -> ServerOutcome:
        self.progress.step(index, manifest.key, f"starting{self._of_rounds(round_number)}")
        log_path = self.raw_dir.parent / self.log_file(manifest)
        if self.plan.repeat > 1:  # every round's output goes to the one log, marked
            with log_path.open("a") as log:
                log.write(f"--- httplab: round {round_number} of {self.plan.repeat} ---\n")
        try:
            with self._database(index, manifest, round_number) as database, \
                    self.backend.serve(manifest, self.plan.server_cpus, log_path,
                                       database.server_environment() if database else None) \
                    as started:
                self.database = database
                return replace(self._verify_and_measure(index, started, round_number),
                               database=self._database_record())
        except (BackendError, DatabaseError) as error:
            return self._give_up(index, manifest, str(error), round_number)
        finally:
            self.database, self.profiler = None, None

    def _database_record(self) -> DatabaseRecord | None:
        """The running database as it described itself, with its log in the run."""
        if self.database is None:
            return None
        return replace(self.database.record, log_file=self._database_log_file())

    def _database_log_file(self) -> str | None:
        """Where the running database's log is, relative to the run: raw/<its log>."""
        database = self.database
        if database is None or database.log_path is None:
            return None
        return f"{self.raw_dir.name}/{database.log_path.name}"

    def _database(self, index: int, manifest: ServerManifest, round_number: int
                  ) -> AbstractContextManager[StartedDatabase | None]:
        """A fresh database for a server measured at db or queries, so that no server
        inherits another's warm cache; none otherwise."""
        if not any(workload.uses_database for workload in self.plan.workloads_of(manifest)):
            return nullcontext(None)
        self.progress.step(index, manifest.key, "starting a fresh database")
        log_path = self.raw_dir / database_log(manifest.key, round_number, self.plan.repeat)
        return self.backend.database.serve(log_path)

    def _of_rounds(self, round_number: int) -> str:
        return f" (round {round_number} of {self.plan.repeat})" if self.plan.repeat > 1 else ""

    def _give_up(self, index: int, manifest: ServerManifest, reason: str, round_number: int,
                 started: StartedServer | None = None,
                 verification: Verification | None = None) -> ServerOutcome:
        self.progress.step(index, manifest.key, f"FAILED: {reason}")
        self.progress.step(index, manifest.key, f"its output: {self.log_file(manifest)}")
        self.progress.spent(START_AND_VERIFY_S + self.plan.seconds_per_start(manifest))
        record = self.record(manifest, started, verification)
        return combined(record, [self.failed_outcome(record, reason, round_number, workload)
                                 for workload in self.plan.workloads_of(manifest)])

    def failed_outcome(self, record: ServerRecord, reason: str, round_number: int,
                       workload: Workload) -> ServerOutcome:
        """A workload that could not be measured: each of its cells failed, saying why."""
        cells = tuple(CellOutcome(record.name, request.threads, request.connections,
                                  failure=reason, repeat=round_number, workload=workload)
                      for request in self.requests(self._manifest_of(record), workload))
        return ServerOutcome(record, cells)

    def _manifest_of(self, record: ServerRecord) -> ServerManifest:
        return next(server for server in self.plan.servers if server.key == record.name)

    def _verify_and_measure(self, index: int, started: StartedServer,
                            round_number: int) -> ServerOutcome:
        manifest = started.manifest
        workloads = self.plan.workloads_of(manifest)
        verification = self.backend.verify(started, workloads)
        if not verification.passed:
            reason = f"verification failed: {verification.summary()}"
            return self._give_up(index, manifest, reason, round_number, started, verification)
        verification = self._with_database_checks(started, verification, workloads)
        first = "?" if started.startup_seconds is None else f"{started.startup_seconds:.1f}"
        self.progress.step(index, manifest.key, f"first answer after {first} s, "
                                                 f"verified ({verification.summary()})")
        if manifest.profiled and (refused := self._attach_profiler(index, started)):
            return self._give_up(index, manifest, refused, round_number, started, verification)
        self.progress.spent(START_AND_VERIFY_S)
        record = self.record(manifest, started, verification)
        failed = verification.failed_workloads()
        return combined(record, [self._workload(index, started, round_number, record, workload,
                                                failed.get(workload.key))
                                 for workload in workloads])

    def _attach_profiler(self, index: int, started: StartedServer) -> str | None:
        """async-profiler loaded into the verified server, its event chosen and checked,
        before any load; else the one line its cells fail with."""
        log_path = started.log_path
        log_before = log_path.stat().st_size if log_path and log_path.exists() else 0
        try:
            attached = attach(self.backend.profiler_control(started), self.plan.profile_event)
        except ProfilerError as error:
            said = _agent_error_since(log_path, log_before)
            return (f"{error}{f': {said}' if said else ''}; its message is in the server's "
                    f"log, {self.log_file(started.manifest)}; PROFILE=0 measures it without "
                    "the profiler")
        self.profiler = attached.profiler
        self.progress.step(index, started.manifest.key, attached.note)
        return None

    def _with_database_checks(self, started: StartedServer, verification: Verification,
                              workloads: tuple[Workload, ...]) -> Verification:
        """The db and queries answers checked against the database itself (rows that exist
        and match, n clamped, one statement per row), from this machine."""
        database = self.database
        if database is None:
            return verification
        checks = verify_database(self.backend.target_address, started.manifest.port,
                                 workloads, lambda sql: self.backend.database.query(database, sql),
                                 query_error=DatabaseError)
        return Verification(verification.checks + checks)

    def _workload(self, index: int, started: StartedServer, round_number: int,
                  record: ServerRecord, workload: Workload,
                  check_failure: str | None) -> ServerOutcome:
        """One workload of a verified server: warmed at it, then measured, unless its own
        check failed; a failure here leaves the server's other workloads to run."""
        name = started.manifest.key
        if check_failure:
            reason = f"not loaded: the {workload.label} check failed: {check_failure}"
            self.progress.step(index, name, reason)
            self.progress.spent(self.plan.seconds_per_workload)
            return self.failed_outcome(record, reason, round_number, workload)
        for done, phase in enumerate(self.plan.phases):
            failure = self._unmeasured(index, started, phase, round_number, workload)
            if failure:
                self.progress.step(index, name, f"FAILED: {failure}")
                warmed_s = sum(earlier.duration_s for earlier in self.plan.phases[:done + 1])
                self.progress.spent(self.plan.seconds_per_workload - warmed_s)
                return self.failed_outcome(record, failure, round_number, workload)
        return self.measure(index, started, round_number, record, workload)

    def measure(self, index: int, started: StartedServer, round_number: int,
                record: ServerRecord, workload: Workload) -> ServerOutcome:
        """The measured runs of a ready, verified server, warmed at this workload."""
        cells = tuple(self._measured(index, started, request, round_number, workload)
                      for request in self.requests(started.manifest, workload))
        return ServerOutcome(record, cells)

    def _at(self, workload: Workload) -> str:
        """How progress names a workload: not at all when plaintext is all there is."""
        return "" if self.plan.workloads == (workload,) and workload.is_plaintext \
            else f" [{workload.label}]"

    def record(self, manifest: ServerManifest, started: StartedServer | None,
               verification: Verification | None) -> ServerRecord:
        """The server as run, for the results: its manifest, what it said and how it did."""
        record = replace(record_of_manifest(manifest), log_file=self.log_file(manifest))
        if started is None:
            return record
        startup = started.startup
        return replace(
            record, transport=startup.transport if startup else record.transport,
            blocking_pool=(startup.blocking_pool or None) if startup else None,
            db_pool=(startup.db_pool or None) if startup else None,
            startup_line=startup.line if startup else None,
            verification=verification.summary() if verification else None,
            image_size_bytes=started.image_size_bytes, java_version=started.java_version,
            startup_seconds=started.startup_seconds, image_id=started.image_id)

    def _unmeasured(self, index: int, started: StartedServer, phase: Phase,
                    round_number: int, workload: Workload) -> str | None:
        first = max(self.requests(started.manifest, workload),
                    key=lambda request: request.connections)
        connections = phase.connections or first.connections
        request = WrkRequest(min(first.threads, connections), connections, phase.duration,
                             phase.duration_s, first.url)
        self.progress.step(index, started.manifest.key,
                           f"{phase.name} (not measured): wrk -t{request.threads} "
                           f"-c{connections} -d{phase.duration}{self._at(workload)}")
        outcome = self.measurer.unmeasured(started, request, phase.name, round_number,
                                           self.plan.repeat, workload)
        self.progress.spent(phase.duration_s)
        stopped = self.stopped(started)
        if stopped:
            return f"{stopped} during the {phase.name}"
        return None if outcome.failure is None else f"{phase.name} failed: {outcome.failure}"

    def stopped(self, started: StartedServer) -> str | None:
        """How the server, or the database it reads, stopped; None while both run."""
        stopped = self.backend.exit_status(started)
        if stopped or self.database is None:
            return stopped
        database = self.backend.database.exit_status(self.database)
        if not database:
            return None
        log = self._database_log_file()
        return f"the database {database}" + (f" (see {log})" if log else "")

    def _measured(self, index: int, started: StartedServer, request: WrkRequest,
                  repeat: int, workload: Workload) -> CellOutcome:
        name = started.manifest.key
        stopped = self.stopped(started)
        if stopped:
            self.progress.step(index, name, f"not measured: {stopped}")
            return CellOutcome(name, request.threads, request.connections,
                               failure=f"{stopped} before this run", repeat=repeat,
                               workload=workload)
        self.progress.step(index, name, f"wrk -t{request.threads} -c{request.connections} "
                                        f"-d{request.duration}{self._at(workload)}"
                                        f"{self._of_rounds(repeat)}")
        outcome: RunOutcome = self.measurer.measured(started, request, repeat, self.plan.repeat,
                                                     workload, self.database, self.profiler)
        self.progress.spent(request.duration_s)
        stopped = self.stopped(started)
        failure = outcome.failure or (f"{stopped} during this run" if stopped else None)
        for problem in [failure] + [g.failure for g in outcome.generators]:
            if problem:
                self.progress.step(index, name, problem)
        profile = outcome.profile
        if profile and profile.failure:  # the run stands; only its profile is missing
            self.progress.step(index, name, f"no profile of this run: {profile.failure}")
        measured = CellOutcome(name, request.threads, request.connections, outcome.text_path,
                               outcome.json_path, failure, repeat, outcome.resources_path,
                               outcome.generators, workload=workload,
                               profile_path=profile.record_path if profile else None)
        if self.plan.fairness and not failure:
            return self._fairness(index, started, request, measured)
        if self.plan.fairness:
            self.progress.spent(request.duration_s)  # no h2load after a failed run
        return measured

    def _fairness(self, index: int, started: StartedServer, request: WrkRequest,
                  measured: CellOutcome) -> CellOutcome:
        """h2load right after the measured run, as long, at the same connections; its
        problems are said but do not fail wrk's run."""
        name = started.manifest.key
        self.progress.step(index, name, f"h2load --h1 -t{request.threads} "
                                        f"-c{request.connections} -D{request.duration_s} "
                                        "(fairness, not measured by wrk)")
        outcome = self.measurer.fairness(started, request, measured.repeat, self.plan.repeat,
                                         measured.workload)
        self.progress.spent(request.duration_s)
        if outcome.failure:
            self.progress.step(index, name, outcome.failure)
        return replace(measured, h2load_path=outcome.h2load_path,
                       sockets_path=outcome.sockets_path)


def _agent_error_since(log_path: Path | None, offset: int) -> str | None:
    """The agent's "[ERROR] ..." line that the server printed after offset, if any."""
    if log_path is None or not log_path.exists():
        return None
    with log_path.open("rb") as log:
        log.seek(offset)
        return last_agent_error(log.read().decode(errors="replace"))


def combined(record: ServerRecord, parts: list[ServerOutcome]) -> ServerOutcome:
    """One server's outcome from its workloads' outcomes, in the order they ran."""
    return ServerOutcome(record, tuple(cell for part in parts for cell in part.cells),
                         tuple(step for part in parts for step in part.steps))
