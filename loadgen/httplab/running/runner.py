"""Runs the plan's server lifecycle: one server at a time; start, verify, then for each
workload its primer and warm-up (unmeasured) and what the run measures there, handed to a
Measures (make bench's wrk cells, make latency's rate series); every server again in each
round, in a rotated order. A workload whose check failed is not loaded; the server's
others still are.

The runner only starts things and records where their raw output went; reading that
output is collect.py's job."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Callable, Protocol

from httplab.running.backends.base import StartedServer
from httplab.running.backend_error import BackendError
from httplab.running.database.base import DatabaseError, StartedDatabase
from httplab.results.assemble import record_of_manifest
from httplab.manifest import ServerManifest
from httplab.model import DatabaseRecord, ServerRecord, Workload
from httplab.outcomes import ServerOutcome
from httplab.axes import H1
from httplab.loadtools.h2load.measured_command import h2load_run_label
from httplab.running.measure import H2LOAD, Measurer, closed_loop_tool, h2load_request
from httplab.running.plan import Phase, rotated, target_url
from httplab.running.profiling.agent import ProfilerError, last_agent_error
from httplab.running.profiling.attach import attach
from httplab.running.profiling.control import ServerProfiler
from httplab.running.profiling.pinning import PinningRecorder, records_pinning
from httplab.running.progress import START_AND_VERIFY_S
from httplab.running.run_context import RunContext, Serving
from httplab.checking.ready_line import JavaRuntime
from httplab.checking.conformance import Verification
from httplab.checking.database import verify_database
from httplab.run_layout import database_log, server_log, unmeasured_dir
from httplab.loadtools.wrk.command import WrkRequest


class Measures(Protocol):
    """What a run measures on each started, verified and warmed server."""

    def measure(self, serving: Serving, workload: Workload) -> ServerOutcome:
        """The measured part of one workload of a ready server."""

    def failed(self, record: ServerRecord, reason: str, round_number: int,
               workload: Workload) -> ServerOutcome:
        """A workload that could not be measured, saying why."""


def wrk_requests(context: RunContext, manifest: ServerManifest,
                 workload: Workload) -> list[WrkRequest]:
    """The plan's measured wrk runs against one server at one workload."""
    plan = context.plan
    url = target_url(manifest, context.backend.target_address, workload)
    return [WrkRequest(point.threads, point.connections, plan.duration, plan.duration_s, url)
            for point in plan.points]


def load_label(context: RunContext, serving: Serving, request: WrkRequest) -> str:
    """How progress names a closed-loop run: its tool and arguments, and its protocol
    where it is not plaintext HTTP/1.1 (wrk -t10 -c500 -d10s, h2load -t10 -c500 -m1 -D10
    (h2))."""
    protocol = serving.started.manifest.protocol
    if closed_loop_tool(protocol) == H2LOAD:
        return h2load_run_label(h2load_request(request, context.plan.streams, None), protocol)
    tls = f" ({protocol})" if protocol != H1 else ""
    return f"wrk -t{request.threads} -c{request.connections} -d{request.duration}{tls}"


def workload_label(context: RunContext, workload: Workload) -> str:
    """How progress names a workload: not at all when plaintext is all there is."""
    plan = context.plan
    return "" if plan.workloads == (workload,) and workload.is_plaintext \
        else f" [{workload.label}]"


# After the given round, whether to run another (REPEAT=auto's rule, asked by the command).
AnotherRound = Callable[[int], bool]


class Runner:
    """Starts, verifies, primes, warms and stops each server; what it measures once a
    server is ready is the Measures' part. Rounds run up to the plan's repeat; when
    another_round is given, it is asked after each, and the run stops when it says no."""

    def __init__(self, context: RunContext, measures: Measures,
                 on_server_done: Callable[[ServerOutcome], None],
                 another_round: AnotherRound | None = None):
        self.context, self.measures, self.on_server_done = context, measures, on_server_done
        self.another_round = another_round
        self._warmer = Measurer(context)
        self._database: StartedDatabase | None = None  # the running server's, while it runs
        self._profiler: ServerProfiler | None = None  # PROFILE=1: the running server's

    def run(self) -> list[ServerOutcome]:
        """Round after round, every server (in a rotated order) is started, warmed up and
        measured, so a host that slows down for a while slows every server's runs alike
        rather than one server's."""
        plan = self.context.plan
        unmeasured_dir(self.context.raw_dir).mkdir(parents=True, exist_ok=True)
        outcomes = []
        index = 0
        for round_number in range(1, plan.repeat + 1):
            for manifest in rotated(plan.servers, round_number):
                if manifest.not_applicable:
                    if round_number == 1:  # said once, never started
                        outcomes.append(self._not_applicable(manifest))
                        self.on_server_done(outcomes[-1])
                    continue
                index += 1
                outcome = self._run_server(index, manifest, round_number)
                outcomes.append(outcome)
                self.on_server_done(outcome)
            if self.another_round and not self.another_round(round_number):
                break
        return outcomes

    def _log_file(self, manifest: ServerManifest) -> str:
        """raw/<server>.log: where the server's whole output goes, relative to the run."""
        return f"{self.context.raw_dir.name}/{server_log(manifest.key)}"

    def _run_server(self, index: int, manifest: ServerManifest,
                    round_number: int) -> ServerOutcome:
        context, plan = self.context, self.context.plan
        context.progress.step(index, manifest.key,
                              f"starting{context.of_rounds(round_number)}")
        log_path = context.raw_dir.parent / self._log_file(manifest)
        if plan.repeat > 1:  # every round's output goes to the one log, marked
            with log_path.open("a") as log:
                log.write(f"--- httplab: round {round_number} of {plan.repeat} ---\n")
        try:
            with self._database_for(index, manifest, round_number) as database, \
                    context.backend.serve(manifest, plan.server_cpus, log_path,
                                          database.server_environment() if database else None) \
                    as started:
                self._database = database
                return replace(self._verify_and_measure(index, started, round_number),
                               database=self._database_record())
        except (BackendError, DatabaseError) as error:
            return self._give_up(index, manifest, str(error), round_number)
        finally:
            self._database, self._profiler = None, None

    def _database_record(self) -> DatabaseRecord | None:
        """The running database as it described itself, with its log in the run."""
        if self._database is None:
            return None
        return replace(self._database.record, log_file=self._database_log_file())

    def _database_log_file(self) -> str | None:
        """Where the running database's log is, relative to the run: raw/<its log>."""
        database = self._database
        if database is None or database.log_path is None:
            return None
        return f"{self.context.raw_dir.name}/{database.log_path.name}"

    def _database_for(self, index: int, manifest: ServerManifest, round_number: int
                      ) -> AbstractContextManager[StartedDatabase | None]:
        """A fresh database for a server measured at db or queries, so that no server
        inherits another's warm cache; none otherwise."""
        context = self.context
        if not any(workload.uses_database for workload in context.plan.workloads_of(manifest)):
            return nullcontext(None)
        context.progress.step(index, manifest.key, "starting a fresh database")
        log_path = context.raw_dir / database_log(manifest.key, round_number, context.rounds)
        return context.backend.database.serve(log_path)

    def _not_applicable(self, manifest: ServerManifest) -> ServerOutcome:
        """A variant the framework cannot run: never started, its cells saying why."""
        reason = manifest.not_applicable
        self.context.progress.skipped(manifest.key, reason)
        record = replace(record_of_manifest(manifest), log_file=None)
        return combined(record, [self.measures.failed(record, reason, 1, workload)
                                 for workload in self.context.plan.workloads_of(manifest)])

    def _give_up(self, index: int, manifest: ServerManifest, reason: str, round_number: int,
                 started: StartedServer | None = None,
                 verification: Verification | None = None) -> ServerOutcome:
        progress = self.context.progress
        progress.step(index, manifest.key, f"FAILED: {reason}")
        progress.step(index, manifest.key, f"its output: {self._log_file(manifest)}")
        progress.spent(START_AND_VERIFY_S + self.context.plan.seconds_per_start(manifest))
        record = self._record(manifest, started, verification)
        return combined(record, [self.measures.failed(record, reason, round_number, workload)
                                 for workload in self.context.plan.workloads_of(manifest)])

    def _verify_and_measure(self, index: int, started: StartedServer,
                            round_number: int) -> ServerOutcome:
        manifest, progress = started.manifest, self.context.progress
        workloads = self.context.plan.workloads_of(manifest)
        verification = self.context.backend.verify(started, workloads)
        if not verification.passed:
            reason = f"verification failed: {verification.summary()}"
            return self._give_up(index, manifest, reason, round_number, started, verification)
        verification = self._with_database_checks(started, verification, workloads)
        first = "?" if started.startup_seconds is None else f"{started.startup_seconds:.1f}"
        progress.step(index, manifest.key, f"first answer after {first} s, "
                                            f"verified ({verification.summary()})")
        if manifest.profiled and (refused := self._attach_profiler(index, started)):
            return self._give_up(index, manifest, refused, round_number, started, verification)
        progress.spent(START_AND_VERIFY_S)
        serving = Serving(index, self._record(manifest, started, verification), round_number,
                          started, lambda: self._stopped(started), self._database,
                          self._profiler, self._pinning_recorder(index, started))
        failed = verification.failed_workloads()
        return combined(serving.record, [self._workload(serving, workload,
                                                        failed.get(workload.key))
                                         for workload in workloads])

    def _attach_profiler(self, index: int, started: StartedServer) -> str | None:
        """async-profiler loaded into the verified server, its event chosen and checked,
        before any load; else the one line its cells fail with."""
        log_path = started.log_path
        log_before = log_path.stat().st_size if log_path and log_path.exists() else 0
        try:
            attached = attach(self.context.backend.profiler_control(started),
                              self.context.plan.profile_event)
        except ProfilerError as error:
            said = _agent_error_since(log_path, log_before)
            return (f"{error}{f': {said}' if said else ''}; its message is in the server's "
                    f"log, {self._log_file(started.manifest)}; PROFILE=0 measures it without "
                    "the profiler")
        self._profiler = attached.profiler
        self.context.progress.step(index, started.manifest.key, attached.note)
        return None

    def _pinning_recorder(self, index: int, started: StartedServer) -> PinningRecorder | None:
        """JFR's recorder of pinned virtual threads, for a server whose blocking work runs on
        them; one that cannot be reached is said, and its runs measured without it."""
        if not records_pinning(started.manifest):
            return None
        try:
            control = self.context.backend.profiler_control(started)
        except BackendError as error:
            self.context.progress.step(index, started.manifest.key,
                                       f"pinned virtual threads not recorded: {error}")
            return None
        return PinningRecorder(control, self.context.jfr_reader)

    def _with_database_checks(self, started: StartedServer, verification: Verification,
                              workloads: tuple[Workload, ...]) -> Verification:
        """The db and queries answers checked against the database itself (rows that exist
        and match, n clamped, one statement per row), from this machine."""
        database, backend = self._database, self.context.backend
        if database is None:
            return verification
        checks = verify_database(backend.target_address, started.manifest.port,
                                 workloads, lambda sql: backend.database.query(database, sql),
                                 query_error=DatabaseError)
        return Verification(verification.checks + checks)

    def _workload(self, serving: Serving, workload: Workload,
                  check_failure: str | None) -> ServerOutcome:
        """One workload of a verified server: warmed at it, then measured, unless its own
        check failed; a failure here leaves the server's other workloads to run."""
        plan, progress = self.context.plan, self.context.progress
        index, name = serving.index, serving.server
        if check_failure:
            reason = f"not loaded: the {workload.label} check failed: {check_failure}"
            progress.step(index, name, reason)
            progress.spent(plan.seconds_per_workload)
            return self.measures.failed(serving.record, reason, serving.round_number, workload)
        for done, phase in enumerate(plan.phases):
            failure = self._unmeasured(serving, phase, workload)
            if failure:
                progress.step(index, name, f"FAILED: {failure}")
                warmed_s = sum(earlier.duration_s for earlier in plan.phases[:done + 1])
                progress.spent(plan.seconds_per_workload - warmed_s)
                return self.measures.failed(serving.record, failure, serving.round_number,
                                            workload)
        return self.measures.measure(serving, workload)

    def _record(self, manifest: ServerManifest, started: StartedServer | None,
                verification: Verification | None) -> ServerRecord:
        """The server as run, for the results: its manifest, what it said and how it did."""
        record = replace(record_of_manifest(manifest), log_file=self._log_file(manifest))
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
            startup_seconds=started.startup_seconds, image_id=started.image_id,
            seccomp=started.seccomp, tls_engine=startup.tls if startup else None,
            **_runtime_fields(startup.runtime if startup else None))

    def _unmeasured(self, serving: Serving, phase: Phase, workload: Workload) -> str | None:
        """The primer or the warm-up: wrk at the plan's most connections, not measured."""
        first = max(wrk_requests(self.context, serving.started.manifest, workload),
                    key=lambda request: request.connections)
        connections = phase.connections or first.connections
        request = WrkRequest(min(first.threads, connections), connections, phase.duration,
                             phase.duration_s, first.url)
        self.context.progress.step(serving.index, serving.server,
                                   f"{phase.name} (not measured): "
                                   f"{load_label(self.context, serving, request)}"
                                   f"{workload_label(self.context, workload)}")
        outcome = self._warmer.unmeasured(serving, request, phase.name, workload)
        self.context.progress.spent(phase.duration_s)
        stopped = serving.stopped()
        if stopped:
            return f"{stopped} during the {phase.name}"
        return None if outcome.failure is None else f"{phase.name} failed: {outcome.failure}"

    def _stopped(self, started: StartedServer) -> str | None:
        """How the server, or the database it reads, stopped; None while both run."""
        backend = self.context.backend
        stopped = backend.exit_status(started)
        if stopped or self._database is None:
            return stopped
        database = backend.database.exit_status(self._database)
        if not database:
            return None
        log = self._database_log_file()
        return f"the database {database}" + (f" (see {log})" if log else "")


def _runtime_fields(runtime: JavaRuntime | None) -> dict[str, object]:
    """What the server said of its JVM, for its record (nothing from the reference)."""
    if runtime is None:
        return {}
    return {"gc": runtime.gc, "heap_max_mb": runtime.heap_max_mb,
            "java_vendor": runtime.vendor}


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
