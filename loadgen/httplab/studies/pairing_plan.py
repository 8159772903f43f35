"""make pairing-study's plan: a bench plan of one server at one load point (its start,
primer, warm-up and measured run, as make bench does them), the two sides of the A/A on
two loopback ports, and the study's own counts; and the order its two designs run in,
interleaved so that the host's drift reaches both. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from httplab.bench_settings import PAIRING_STUDY_SETTINGS
from httplab.manifest import ServerManifest
from httplab.plan_error import PlanError
from httplab.results.paired_ratio import MIN_ROUNDS
from httplab.running.plan import BenchPlan, make_plan, target_url
from httplab.loadtools.wrk.command import WrkRequest
from httplab.workloads import PLAINTEXT

# The two sides' ports, on 127.0.0.1 only: both sides of the alternating design listen at
# once, and neither is the lab's usual 8080.
STUDY_PORTS = (18081, 18082)
SIDES = ("A", "B")
STUDY_DEFAULTS = {flag: default for flag, default, _ in PAIRING_STUDY_SETTINGS}
MIN_PAIRS = 2  # the pairs' own spread needs two pairs in a start
# The settings of make bench a study does not vary: one round, no ceiling, no h2load.
FIXED_BENCH = {"repeat": "1", "ceiling": "0", "fairness": "0"}


@dataclass(frozen=True)
class PairingPlan:
    bench: BenchPlan  # one server, one load point, its primer and warm-up
    rounds: int  # whole rounds
    starts: int  # alternating: starts of both sides at once
    pairs: int  # alternating: pairs per start
    out: Path  # the study's files: out.json and out.md
    ports: tuple[int, int] = STUDY_PORTS

    @property
    def server(self) -> ServerManifest:
        return self.bench.applicable[0]

    @property
    def sides(self) -> tuple[ServerManifest, ServerManifest]:
        """The server twice, each side on its own port."""
        return replace(self.server, port=self.ports[0]), replace(self.server, port=self.ports[1])

    def measured(self, side: ServerManifest) -> WrkRequest:
        """One measured run against a side."""
        point = self.bench.points[0]
        return WrkRequest(point.threads, point.connections, self.bench.duration,
                          self.bench.duration_s, target_url(side, self.bench.target_address,
                                                            PLAINTEXT))

    @property
    def load_seconds(self) -> int:
        """The seconds of load of both designs: primers, warm-ups and measured runs."""
        warming = sum(phase.duration_s for phase in self.bench.phases)
        run = self.bench.duration_s
        return 2 * self.rounds * (warming + run) + self.starts * 2 * (warming + self.pairs * run)


def make_pairing_plan(settings: Mapping[str, str], known: tuple[ServerManifest, ...],
                      available_cpus: frozenset[int] = frozenset(),
                      ports: tuple[int, int] = STUDY_PORTS) -> PairingPlan:
    """The study's plan from its settings (flag -> text; a flag left out takes its
    default); PlanError at the first that cannot work."""
    typed = {**STUDY_DEFAULTS, **settings}
    bench_settings = {flag: text for flag, text in settings.items() if flag not in STUDY_DEFAULTS}
    bench = make_plan({**bench_settings, **FIXED_BENCH}, known, available_cpus)
    if len(bench.applicable) != 1 or bench.applicable[0].is_reference:
        raise PlanError("make pairing-study measures one framework against itself: SERVERS "
                        "names one (and one JDK), not the reference; got "
                        f"{', '.join(server.key for server in bench.applicable) or 'none'}")
    if len(bench.points) != 1:
        raise PlanError("make pairing-study measures one load point: one THREADS and one "
                        "CONNECTIONS value")
    if ports[0] == ports[1]:
        raise PlanError(f"the two sides need two ports, got {ports[0]} twice")
    return PairingPlan(bench, _count("ROUNDS", typed["rounds"], MIN_ROUNDS),
                       _count("STARTS", typed["starts"], MIN_ROUNDS),
                       _count("PAIRS", typed["pairs"], MIN_PAIRS), Path(typed["out"]), ports)


def _count(name: str, text: str, least: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        value = None
    if value is None or value < least:
        raise PlanError(f"{name} takes a whole number, {least} or more; got {text!r}")
    return value


@dataclass(frozen=True)
class Step:
    """One step of the study: a whole round, or one start of the alternating design."""

    design: str  # WHOLE or ALTERNATING
    number: int  # from 1, within its design


WHOLE, ALTERNATING = "whole", "alternating"


def schedule(rounds: int, starts: int) -> tuple[Step, ...]:
    """Both designs interleaved: the whole rounds spread evenly between the starts, a block
    of rounds before each start, then after it, turn about, so neither design owns the
    first or the last minutes."""
    steps, done = [], 0
    for block in range(starts):
        share = round((block + 1) * rounds / starts) - done
        whole = [Step(WHOLE, done + number) for number in range(1, share + 1)]
        alternating = [Step(ALTERNATING, block + 1)]
        steps += whole + alternating if block % 2 == 0 else alternating + whole
        done += share
    return tuple(steps)
