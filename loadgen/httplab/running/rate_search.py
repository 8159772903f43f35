"""Which fixed rate to run next: a RATES list in order, or RATES=auto's search for the
highest rate that holds the target. Pure: it sees only the rates run so far and whether
each held.

The search: from START_RATE, multiply by GROWTH while steps hold; once one breaks, bisect
between the highest rate that held and the lowest that broke until they are within
PRECISION of each other. A first step that breaks halves the rate instead, down to
MIN_RATE. A step the load tool could not hold ends the search: the server's limit lies
beyond what this tool can show, and the maximum is "at least" the highest that held."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import StepVerdict

START_RATE = 1000.0
GROWTH = 2.0
PRECISION = 0.05  # the search stops when the bracket is this narrow, relative to its top
MIN_RATE = 50.0
MAX_RATE = 2_000_000.0
MAX_AUTO_STEPS = 24  # a bound that no search here reaches: 12 doublings and 6 halvings


@dataclass(frozen=True)
class RateSpec:
    """RATES as given: a fixed increasing list, or () for the automatic search."""

    fixed: tuple[float, ...] = ()

    @property
    def auto(self) -> bool:
        return not self.fixed


History = tuple[tuple[float, StepVerdict], ...]  # (offered rate, how it ended), in run order


def next_rate(spec: RateSpec, history: History) -> float | None:
    """The next rate to run, or None when the series is done."""
    if not spec.auto:
        return spec.fixed[len(history)] if len(history) < len(spec.fixed) else None
    if not history:
        return START_RATE
    if len(history) >= MAX_AUTO_STEPS or _tool_limited(history):
        return None
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


def highest_held(history: History, below: float | None = None) -> float | None:
    """The highest rate that held, under `below` when given (a rate that held above one
    that broke was luck, not capacity)."""
    rates = [rate for rate, verdict in history
             if verdict.held and (below is None or rate < below)]
    return max(rates) if rates else None


def lowest_broken(history: History) -> float | None:
    """The lowest rate that broke for the server's sake (a failed run counts)."""
    rates = [rate for rate, verdict in history
             if not verdict.held and verdict is not StepVerdict.LOAD_TOOL]
    return min(rates) if rates else None


def _tool_limited(history: History) -> bool:
    return any(verdict is StepVerdict.LOAD_TOOL for _, verdict in history)


def _round_rate(rate: float) -> float:
    """Whole requests a second, as one would type them."""
    return float(round(rate))


def search_outcome(history: History) -> tuple[float | None, bool]:
    """(the max sustainable rate: the highest that held below every rate that broke,
    whether the load tool's limit came first)."""
    return highest_held(history, below=lowest_broken(history)), _tool_limited(history)
