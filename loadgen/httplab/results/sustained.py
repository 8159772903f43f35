"""A server's max sustainable rate from the steps it ran: the highest offered rate that
held the target, below every rate that broke it (a rate that held above one that broke
was luck, not capacity). A rate run twice (the search confirms a break by running the
rate again) held when either run held: a stall of the host can break one run at any
rate. A step that broke while the host stalled or was busy ("host") says nothing of the
server: its rate is run again, up to MAX_HOST_RUNS times in all, and a rate whose every
run was the host's is undetermined; a round with such a rate between its highest held
rate and its lowest broken one has no maximum ("not determined": the host's, never the
server's). Pure."""

from __future__ import annotations

from httplab.model import RateStep, StepPurpose, StepVerdict, SustainedRate

History = tuple[tuple[float, StepVerdict], ...]  # (offered rate, how it ended), in run order
MAX_HOST_RUNS = 3  # how often a rate is run while every run of it is the host's


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
    """Not held, and neither the load tool's shortfall nor the host's (a failed run
    counts)."""
    return not verdict.held and verdict not in (StepVerdict.LOAD_TOOL, StepVerdict.HOST)


def host_runs(history: History, rate: float) -> int:
    """How often this rate was run and judged the host's."""
    return sum(1 for earlier, verdict in history
               if earlier == rate and verdict is StepVerdict.HOST)


def undetermined_by_host(history: History) -> float | None:
    """The lowest rate the host kept from being judged (no run held, the last was the
    host's) when it lies above the highest rate that held below every broken one: the
    round's maximum is then not known. None when the host left the maximum alone."""
    broke = lowest_broken(history)
    held = highest_held(history, below=broke)
    rates = [rate for rate, verdict in by_rate(history) if verdict is StepVerdict.HOST
             and (held is None or rate > held) and (broke is None or rate < broke)]
    return min(rates) if rates else None


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
    maxima, broke_at, host_rounds, limited = [], [], [], False
    for number, round_number in enumerate(rounds, 1):
        ran = [step for step in steps if step.repeat == round_number]
        history = tuple((step.offered_rate, step.verdict) for step in ran)
        rate, by_tool = search_outcome(history)
        host_rate = undetermined_by_host(history)
        if host_rate is not None:
            rate = None
            host_rounds.append(number)
        maxima.append(rate)
        limited = limited or by_tool
        broke_at.append(_what_broke(ran, history, host_rate))
    return SustainedRate(server, tuple(maxima), limited, tuple(broke_at), tuple(host_rounds))


def _what_broke(ran: list[RateStep], history: History, host_rate: float | None) -> str:
    """The step that set the maximum's upper bound, or that the host left undetermined,
    in words."""
    broken = lowest_broken(history)
    if host_rate is not None:
        step = _last_run(ran, host_rate)
        return f"not determined: {step.offered_rate:g}/s: {step.reason}"
    if broken is None and tool_limited(history):
        step = next(step for step in ran if step.verdict is StepVerdict.LOAD_TOOL)
    elif broken is None:
        return "no step broke the target"
    else:
        step = next(step for step in ran if step.offered_rate == broken
                    and broke_for_the_server(step.verdict))
    return f"{step.offered_rate:g}/s: {step.reason}"


def _last_run(ran: list[RateStep], rate: float) -> RateStep:
    return [step for step in ran if step.offered_rate == rate][-1]
