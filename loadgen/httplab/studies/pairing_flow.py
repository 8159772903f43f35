"""make pairing-study's flow on a backend: the steps of schedule() in order. A whole round
starts each side in turn (A then B, B then A the next round), checks it, primes, warms and
measures it once, and stops it; an alternating start starts both sides at once, each on
its port, checks, primes and warms each once, then runs the pairs in A B B A order. Every
server is started through the backend's serve(), so each one is stopped (its container
removed) on leaving, on a failure and on Ctrl-C alike. Raw wrk files go to a scratch
folder; what is kept is PairingMeasurements."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from httplab.loadtools.wrk.command import WrkRequest
from httplab.loadtools.wrk.done_json import parse_done_json
from httplab.manifest import ServerManifest
from httplab.running.backend_error import BackendError
from httplab.running.backends.base import Backend, StartedServer
from httplab.studies.pairing_measurements import (AlternatingStart, PairedRuns,
                                                  PairingMeasurements)
from httplab.studies.pairing_plan import ALTERNATING, SIDES, PairingPlan, schedule


class StudyError(Exception):
    """A step of the study that could not run, in one line."""


class PairingFlow:
    """Runs the plan's steps on two backends, one per side (Docker: the second beside the
    first, in a Compose project of its own; local: one backend may serve both)."""

    def __init__(self, plan: PairingPlan, backends: tuple[Backend, Backend], scratch: Path,
                 say: Callable[[str], None], clock: Callable[[], float] = time.monotonic):
        self.plan, self.backends, self.scratch = plan, backends, scratch
        self.say, self.clock = say, clock
        self.java: str | None = None
        self._runs = 0  # names each wrk run's files in the scratch folder

    def run(self) -> PairingMeasurements:
        rounds, starts = [], []
        steps = schedule(self.plan.rounds, self.plan.starts)
        for index, step in enumerate(steps, 1):
            self.say(f"[{index}/{len(steps)}] {step.design} {step.number}")
            if step.design == ALTERNATING:
                starts.append(self._alternating_start())
            else:
                rounds.append(self._whole_round(step.number))
        return PairingMeasurements(tuple(rounds), tuple(starts), self.java)

    def _whole_round(self, number: int) -> PairedRuns:
        """Each side started, primed, warmed, measured once and stopped, in turn."""
        began, rps = self.clock(), {}
        order = (0, 1) if number % 2 else (1, 0)
        for side in order:
            with self._serving(side):
                self._warm(side)
                rps[side] = self._measure(side)
        return PairedRuns(rps[0], rps[1], self.clock() - began)

    def _alternating_start(self) -> AlternatingStart:
        """Both sides started at once, each warmed once, then the pairs in A B B A order."""
        began, pairs = self.clock(), []
        with ExitStack() as both:
            for side in (0, 1):
                both.enter_context(self._serving(side))
            for side in (0, 1):
                self._warm(side)
            warmed = self.clock()
            for number in range(1, self.plan.pairs + 1):
                pairs.append(self._pair((0, 1) if number % 2 else (1, 0)))
            stopping = self.clock()
        fixed = (warmed - began) + (self.clock() - stopping)
        return AlternatingStart(tuple(pairs), fixed)

    def _pair(self, order: tuple[int, int]) -> PairedRuns:
        began, rps = self.clock(), {}
        for side in order:
            rps[side] = self._measure(side)
        return PairedRuns(rps[0], rps[1], self.clock() - began)

    @contextmanager
    def _serving(self, side: int) -> Iterator[StartedServer]:
        """One side's server, started, checked, and stopped on leaving."""
        manifest = self.plan.sides[side]
        log = self.scratch / f"server-{SIDES[side]}-{self._next_run()}.log"
        try:
            with self.backends[side].serve(manifest, self.plan.bench.server_cpus, log) as started:
                self._check(side, started)
                yield started
        except BackendError as error:
            raise StudyError(f"side {SIDES[side]} ({manifest.key} on port {manifest.port}): "
                             f"{error}") from error

    def _check(self, side: int, started: StartedServer) -> None:
        verification = self.backends[side].verify(started)
        if not verification.passed:
            raise StudyError(f"side {SIDES[side]} answered wrong: {verification.summary()}")
        self.java = self.java or started.java_version

    def _warm(self, side: int) -> None:
        """The plan's primer and warm-up against one side, not measured."""
        measured = self.plan.measured(self.plan.sides[side])
        for phase in self.plan.bench.phases:
            connections = phase.connections or measured.connections
            self._wrk(side, WrkRequest(min(measured.threads, connections), connections,
                                       phase.duration, phase.duration_s, measured.url))

    def _measure(self, side: int) -> float:
        """One measured run against a side: its Requests/sec."""
        return self._wrk(side, self.plan.measured(self.plan.sides[side]))

    def _wrk(self, side: int, request: WrkRequest) -> float:
        stem = self.scratch / f"wrk-{SIDES[side]}-{self._next_run()}"
        text, json = stem.with_suffix(".txt"), stem.with_suffix(".json")
        outcome = self.backends[side].run_wrk(request, text, json,
                                              self.plan.bench.loadgen_cpus)
        if outcome.exit_code != 0 or not json.is_file():
            raise StudyError(f"wrk against side {SIDES[side]} failed (exit code "
                             f"{outcome.exit_code}): {outcome.stderr.strip()[-300:]}")
        return parse_done_json(json.read_text(), str(json)).requests_per_sec

    def _next_run(self) -> int:
        self._runs += 1
        return self._runs
