"""Which fixed rate to run next: a RATES list in order, or RATES=auto's search for the
highest rate that holds the target. Pure: it sees only the rates run so far and whether
each held.

The search: from START_RATE, multiply by GROWTH while steps hold; once one breaks, bisect
between the highest rate that held and the lowest that broke until they are within
PRECISION of each other. A first step that breaks halves the rate instead, down to
MIN_RATE. A rate that breaks is run once more before the search believes it: on this
lab's shared, virtualized hosts a stall of the CPU can break one 10 s step at any rate, so
a rate breaks only when both runs do. A step the load tool could not hold ends the search:
the server's limit lies beyond what this tool can show, and the maximum is "at least" the
highest that held."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import StepVerdict
from httplab.results.sustained import (MAX_HOST_RUNS, History, broke_for_the_server,
                                       highest_held, host_runs, lowest_broken, tool_limited)

START_RATE = 1000.0
GROWTH = 2.0
PRECISION = 0.05  # the search stops when the bracket is this narrow, relative to its top
MIN_RATE = 50.0
MAX_RATE = 2_000_000.0
MAX_AUTO_STEPS = 40  # a bound that no search here reaches: 12 doublings, 6 halvings, retries


@dataclass(frozen=True)
class RateSpec:
    """RATES as given: a fixed increasing list, or () for the automatic search."""

    fixed: tuple[float, ...] = ()

    @property
    def auto(self) -> bool:
        return not self.fixed


def next_rate(spec: RateSpec, history: History) -> float | None:
    """The next rate to run, or None when the series is done."""
    if history and history[-1][1] is StepVerdict.HOST:
        rate = history[-1][0]
        return rate if host_runs(history, rate) < MAX_HOST_RUNS else None
    if not spec.auto:
        listed = len({rate for rate, _ in history})
        return spec.fixed[listed] if listed < len(spec.fixed) else None
    if not history:
        return START_RATE
    if len(history) >= MAX_AUTO_STEPS or tool_limited(history):
        return None
    if _to_confirm(history):
        return history[-1][0]
    broke = lowest_broken(history)
    held = highest_held(history, below=broke)
    if broke is None:
        return min(held * GROWTH, MAX_RATE) if held < MAX_RATE else None
    if held is None:
        lower = _round_rate(broke / GROWTH)
        return lower if lower >= MIN_RATE else None
    if broke - held <= PRECISION * broke:
        return None
    return _round_rate((held + broke) / 2)


def _to_confirm(history: History) -> bool:
    """The last step broke the target for the server's sake, the first of its rate's runs
    to do so."""
    rate, verdict = history[-1]
    breaks = sum(1 for earlier, ended in history
                 if earlier == rate and broke_for_the_server(ended))
    return breaks == 1 and broke_for_the_server(verdict)


def why_again(history: History, rate: float) -> str | None:
    """Why `rate` runs again, in words; None on its first run."""
    ran = [verdict for earlier, verdict in history if earlier == rate]
    if not ran:
        return None
    return "the host was not clean" if ran[-1] is StepVerdict.HOST else "to confirm it broke"


def _round_rate(rate: float) -> float:
    """Whole requests a second, as one would type them."""
    return float(round(rate))
