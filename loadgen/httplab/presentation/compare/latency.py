"""Compare two make latency runs server by server: each one's max sustainable rate and its
CPU time per request at the common rate, judged as compare/bench.py judges a cell. Pure.

- The max sustainable rate: each run's value is its lowest round, as results.md states
  it, shown with its rounds' spread; the ratio is the estimate over the rounds (the ratio
  of their geometric means, at the centre of its Welch interval). "higher" or "lower" only
  when its q-value among the servers' maxima is below 0.05, "not distinguishable"
  otherwise, "noise unknown" with one round on either side. A round in which no rate held
  has no logarithm: "not judged (a round held no rate)". A maximum the load tool limited is
  only a lower bound ("at least"): where the true value could change the verdict (the
  limited side lower, or not distinguishable), the verdict is "load tool limit" instead.
  Only the rounds the host left determined count; a maximum the host left undetermined in
  every round is "host: not determined", never a rate of 0.
- The CPU per request at the common rate: the median of the cost steps' rounds, with
  their spread, the same rule among the servers' costs, in words of cost ("costlier",
  "cheaper"); not judged when the two runs' common rates differ.
A server in one run only is "missing in base" or "missing in new". Each judged figure is
said in words too, as compare/bench.py says its cells'."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from httplab.model import BenchResult, SustainedRate
from httplab.presentation.compare.bench import (INTERVAL, Verdict, comparability_notes,
                                                comparisons_made, differences, figures_text,
                                                in_words, noise_verdict)
from httplab.presentation.wording.formatting import MISSING, aligned_rows
from httplab.presentation.views.latency_figures import common_rate_costs, latency_servers
from httplab.presentation.wording.latency import cost_rate_text, server_label, slo_text
from httplab.presentation.wording.variants import runs_sentence
from httplab.results.stats import Summary, summarize
from httplab.results.false_discovery import count_family
from httplab.results.unpaired_ratio import UnpairedRatio, unpaired_ratio

RATE_WORDS = {Verdict.FASTER: "higher", Verdict.SLOWER: "lower",
              Verdict.ZERO: "not judged (a round held no rate)"}
COST_WORDS = {Verdict.FASTER: "costlier", Verdict.SLOWER: "cheaper"}
TOOL_LIMIT = "load tool limit"
HOST_UNDETERMINED = "host: not determined"
OTHER_RATE = "common rates differ"
RERUN_ADVICE = ("Some figures were measured in one round only, so their noise is unknown: "
                "rerun both latency runs with REPEAT=3 or more.")
# What a latency run's figures depend on besides the software under test.
COMPARED_SETTINGS = ("duration_s", "backend", "repeat", "primer_s", "warmup_s", "server_cpus",
                     "loadgen_cpus")
COMPARED_LATENCY = ("slo_p99_us", "rates", "tool", "step_warmup_s", "target_url", "cost_rate")
MAXIMUM_WORDS, COST_RATE_WORDS = "max sustainable rate", "CPU per request at the common rate"
Rounds = list[float] | None  # one side's rounds of a figure; None: not in that run


@dataclass(frozen=True)
class ServerComparison:
    """One figure of one server in both runs: each run's value (the maximum: its lowest
    round; the cost: its median), the spread of its rounds, and the estimate with its
    interval (None: not judged on both sides' rounds)."""

    label: str
    base_value: float | None
    new_value: float | None
    base: Summary | None
    new: Summary | None
    figures: UnpairedRatio | None
    verdict: str

    @property
    def ratio(self) -> float | None:
        return None if self.figures is None else self.figures.ratio


def compare_maxima(base: BenchResult, new: BenchResult) -> tuple[ServerComparison, ...]:
    """Per server, the max sustainable rates, counted among the servers'."""
    servers = _servers(base, new)
    rates = [(_maxima(base).get(server), _maxima(new).get(server)) for server in servers]
    rounds = [(_determined(before), _determined(after)) for before, after in rates]
    family = count_family([_figures(*one) for one in rounds])
    return tuple(_compare_maximum(_label(server, base, new), pair, one, figures)
                 for server, pair, one, figures in zip(servers, rates, rounds, family))


def compare_costs(base: BenchResult, new: BenchResult) -> tuple[ServerComparison, ...]:
    """Per server, the CPU µs per request at the common rate, counted among the servers';
    a side without a cost step counts as missing, other common rates are not judged."""
    same_rate = base.latency.cost_rate == new.latency.cost_rate
    servers = _servers(base, new)
    rounds = [tuple(common_rate_costs(run, server) or None for run in (base, new))
              for server in servers]
    family = count_family([_figures(*one) if same_rate else None for one in rounds])
    comparisons = []
    for server, (before, after), figures in zip(servers, rounds, family):
        before, after = _summary_of(before), _summary_of(after)
        comparisons.append(ServerComparison(_label(server, base, new), _median(before),
                                            _median(after), before, after, figures,
                                            _judged(before, after, figures, COST_WORDS)))
    return tuple(comparisons)


def _compare_maximum(label: str, rates: tuple[SustainedRate | None, SustainedRate | None],
                     rounds: tuple[Rounds, Rounds],
                     figures: UnpairedRatio | None) -> ServerComparison:
    (base, new), (before, after) = rates, (_summary_of(one) for one in rounds)
    verdict = _judged(before, after, figures, RATE_WORDS)
    if base is not None and new is not None and _bound_decides(verdict, base, new):
        verdict = TOOL_LIMIT
    if any(rate is not None and rate.not_determined for rate in (base, new)):
        verdict = HOST_UNDETERMINED
    return ServerComparison(label, _lowest(before), _lowest(after), before, after, figures,
                            verdict)


def _determined(rate: SustainedRate | None) -> Rounds:
    """The rounds the host left determined (one in which no rate held: 0 req/s)."""
    if rate is None or rate.not_determined:
        return None
    return [value or 0.0 for value in rate.determined_rounds]


def _figures(base: Rounds, new: Rounds) -> UnpairedRatio | None:
    return None if base is None or new is None else unpaired_ratio(base, new)


def _bound_decides(verdict: str, base: SustainedRate, new: SustainedRate) -> bool:
    """Whether a side that is only "at least" could, at its true value, say otherwise."""
    if verdict == Verdict.NOT_DISTINGUISHABLE.value:
        return base.limited_by_tool or new.limited_by_tool
    return ((new.limited_by_tool and verdict == RATE_WORDS[Verdict.SLOWER])
            or (base.limited_by_tool and verdict == RATE_WORDS[Verdict.FASTER]))


def _judged(base: Summary | None, new: Summary | None, figures: UnpairedRatio | None,
            words: dict[Verdict, str]) -> str:
    if base is None:
        return Verdict.MISSING_IN_BASE.value
    if new is None:
        return Verdict.MISSING_IN_NEW.value
    if figures is None:  # both measured, yet not compared: their common rates differ
        return OTHER_RATE
    verdict = noise_verdict(figures)
    return words.get(verdict, verdict.value)


def _summary_of(values: Rounds) -> Summary | None:
    return summarize(values) if values else None


def _lowest(summary: Summary | None) -> float | None:
    return None if summary is None else summary.minimum


def _median(summary: Summary | None) -> float | None:
    return None if summary is None else summary.median


def _maxima(result: BenchResult) -> dict[str, SustainedRate]:
    return {rate.server: rate for rate in result.latency.maxima}


def _servers(base: BenchResult, new: BenchResult) -> list[str]:
    return list(dict.fromkeys([*latency_servers(base), *latency_servers(new)]))


def _label(server: str, base: BenchResult, new: BenchResult) -> str:
    return server_label(new if new.server(server) else base, server)


def render_latency_comparison(base: BenchResult, new: BenchResult) -> str:
    """Two plain-text tables (the maxima, the costs), and advice to repeat when some
    figure was measured only once."""
    maxima, costs = compare_maxima(base, new), compare_costs(base, new)
    made = servers_made(maxima, costs)
    lines = ([made, ""] if made else []) + [f"Max sustainable rate at {slo_text(new.latency.slo_p99_us)} (req/s: the lowest of "
             "each run's rounds, and their spread):", *_table(maxima, "max", 0), "",
             f"Server CPU per request at the common rate (µs; base {cost_rate_text(base)}, new "
             f"{cost_rate_text(new)}):", *_table(costs, "median", 1)]
    if any(_measured_once(one) for one in (*maxima, *costs)):
        lines.append(RERUN_ADVICE)
    lines += in_words([*server_sentences(maxima, MAXIMUM_WORDS, False),
                       *server_sentences(costs, COST_RATE_WORDS, True)])
    return "\n".join(lines) + "\n"


def servers_made(maxima: Sequence[ServerComparison],
                 costs: Sequence[ServerComparison]) -> str | None:
    """How many comparisons of each figure the servers make (comparisons_made)."""
    return comparisons_made({MAXIMUM_WORDS: [one.figures for one in maxima],
                             COST_RATE_WORDS: [one.figures for one in costs]})


def server_sentences(comparisons: Sequence[ServerComparison], figure: str,
                     is_cost: bool) -> list[str]:
    """'Netty, max sustainable rate: new is ...' for each figure the rule judged (not a
    load tool's limit, nor other common rates)."""
    judged = {*RATE_WORDS.values(), *COST_WORDS.values(), Verdict.NOT_DISTINGUISHABLE.value}
    sentences = ((f"{one.label}, {figure}",
                  runs_sentence(one.figures, is_cost, rate_steps=figure == MAXIMUM_WORDS))
                 for one in comparisons if one.verdict in judged and one.figures is not None)
    return [f"{what}: {sentence}" for what, sentence in sentences if sentence]


def latency_comparability_notes(base: BenchResult, new: BenchResult) -> list[str]:
    """What differs between two latency runs besides the software: host, target, rates,
    tool, timing, pinning."""
    return (comparability_notes(base, new, COMPARED_SETTINGS)
            + differences(base.latency, new.latency, COMPARED_LATENCY))


def _measured_once(comparison: ServerComparison) -> bool:
    return any(summary is not None and summary.n == 1
               for summary in (comparison.base, comparison.new))


def _table(comparisons: Sequence[ServerComparison], value: str, digits: int) -> list[str]:
    header = ("Server", f"Base {value} [min–max]", f"New {value} [min–max]", "Ratio",
              INTERVAL, "q", "Verdict")
    rows = [(one.label, _figure(one.base_value, one.base, digits),
             _figure(one.new_value, one.new, digits), *figures_text(one.figures), one.verdict)
            for one in comparisons]
    lines = aligned_rows([header, *rows])
    lines.insert(1, "-" * len(lines[0]))
    return lines


def _figure(value: float | None, rounds: Summary | None, digits: int) -> str:
    """'10000 [10000–20000] n=2'; one round has no range to show."""
    if value is None or rounds is None:
        return MISSING
    text = f"{value:.{digits}f}"
    if rounds.n == 1:
        return f"{text} n=1"
    return f"{text} [{rounds.minimum:.{digits}f}–{rounds.maximum:.{digits}f}] n={rounds.n}"
