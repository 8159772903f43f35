"""What make pairing-study measured: each whole round's two runs and its seconds, each
alternating start's pairs with their seconds and the start's fixed seconds, and the
server's JDK. Written by the study's flow, read by its statistics and page. Pure."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PairedRuns:
    """One A/B pair: each side's Requests/sec and the wall seconds the pair took (a whole
    round's: both sides' start, primer, warm-up, run and stop)."""

    base_rps: float  # side A
    other_rps: float  # side B
    seconds: float


@dataclass(frozen=True)
class AlternatingStart:
    """One start of both sides: its pairs, in order, and the seconds paid once per start
    (both started, primed, warmed, and stopped)."""

    pairs: tuple[PairedRuns, ...]
    fixed_seconds: float


@dataclass(frozen=True)
class PairingMeasurements:
    rounds: tuple[PairedRuns, ...]  # whole rounds, in order
    starts: tuple[AlternatingStart, ...]  # alternating starts, in order
    java: str | None  # the JDK the server said it ran on
