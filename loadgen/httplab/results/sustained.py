"""A server's max sustainable rate from the steps it ran: the highest offered rate that
held the target, below every rate that broke it (a rate that held above one that broke
was luck, not capacity). A rate run twice (the search confirms a break by running the
rate again) held when either run held: a stall of the host can break one run at any
rate. Pure."""

from __future__ import annotations

from httplab.model import RateStep, StepPurpose, StepVerdict, SustainedRate

History = tuple[tuple[float, StepVerdict], ...]  # (offered rate, how it ended), in run order


def by_rate(history: History) -> History:
    """One entry per rate, in the order first run: held when any run of it held, else how
    its last run ended."""
    verdicts: dict[float, StepVerdict] = {}
    for rate, verdict in history:
        if rate not in verdicts or not verdicts[rate].held:
            verdicts[rate] = verdict
    return tuple(verdicts.items())


def highest_held(history: History, below: float | None = None) -> float | None:
    rates = [rate for rate, verdict in by_rate(history)
             if verdict.held and (below is None or rate < below)]
    return max(rates) if rates else None


def broke_for_the_server(verdict: StepVerdict) -> bool:
    """Not held, and not the load tool's shortfall (a failed run counts)."""
    return not verdict.held and verdict is not StepVerdict.LOAD_TOOL


def lowest_broken(history: History) -> float | None:
    """The lowest rate that broke for the server's sake."""
    rates = [rate for rate, verdict in by_rate(history) if broke_for_the_server(verdict)]
    return min(rates) if rates else None


def tool_limited(history: History) -> bool:
    return any(verdict is StepVerdict.LOAD_TOOL for _, verdict in history)


def search_outcome(history: History) -> tuple[float | None, bool]:
    """(the max sustainable rate, whether the load tool's limit came first)."""
    return highest_held(history, below=lowest_broken(history)), tool_limited(history)


def sustained_rates(steps: tuple[RateStep, ...]) -> tuple[SustainedRate, ...]:
    """Per server (in the order they first ran), each round's maximum from its search or
    list steps; cost steps say nothing of the maximum."""
    servers = dict.fromkeys(step.server for step in steps)
    return tuple(_sustained(server, [step for step in steps if step.server == server
                                     and step.purpose is not StepPurpose.COST])
                 for server in servers)


def _sustained(server: str, steps: list[RateStep]) -> SustainedRate:
    rounds = sorted({step.repeat for step in steps})
    maxima, broke_at, limited = [], [], False
    for round_number in rounds:
        ran = [step for step in steps if step.repeat == round_number]
        history = tuple((step.offered_rate, step.verdict) for step in ran)
        rate, by_tool = search_outcome(history)
        maxima.append(rate)
        limited = limited or by_tool
        broke_at.append(_what_broke(ran, history))
    return SustainedRate(server, tuple(maxima), limited, tuple(broke_at))


def _what_broke(ran: list[RateStep], history: History) -> str:
    """The step that set the maximum's upper bound, in words."""
    broken = lowest_broken(history)
    if broken is None and tool_limited(history):
        step = next(step for step in ran if step.verdict is StepVerdict.LOAD_TOOL)
    elif broken is None:
        return "no step broke the target"
    else:
        step = next(step for step in ran if step.offered_rate == broken
                    and not step.verdict.held)
    return f"{step.offered_rate:g}/s: {step.reason}"
