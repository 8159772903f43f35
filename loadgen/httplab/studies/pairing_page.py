"""make pairing-study's findings: the statistics of its measurements, and the two files
they are written as, a JSON document of every measurement and figure and a short Markdown
page (the host, the JDK, the date, each design's spread, the minutes for ±5 % and ±10 %,
the verdict). Pure: the command writes them."""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass

from httplab.model import HostInfo
from httplab.studies.pairing_measurements import PairingMeasurements
from httplab.studies.pairing_plan import PairingPlan
from httplab.studies.pairing_stats import (PRECISIONS, UPPER_BOUND_CONFIDENCE, Cost,
                                           RandomEffects, Verdict, log_ratios, random_effects,
                                           verdict, whole_round_sd)

FORMAT_VERSION = 1


@dataclass(frozen=True)
class PairingFindings:
    """The study's figures: each design's spread and seconds, and a verdict per precision."""

    whole_sd: float
    round_seconds: float
    effects: RandomEffects
    start_seconds: float
    pair_seconds: float
    verdicts: tuple[Verdict, ...]


def findings(measured: PairingMeasurements) -> PairingFindings:
    rounds = measured.rounds
    whole_sd = whole_round_sd(log_ratios([one.base_rps for one in rounds],
                                         [one.other_rps for one in rounds]))
    groups = [log_ratios([pair.base_rps for pair in start.pairs],
                         [pair.other_rps for pair in start.pairs]) for start in measured.starts]
    effects = random_effects(groups)
    round_s = statistics.fmean(one.seconds for one in rounds)
    start_s = statistics.fmean(start.fixed_seconds for start in measured.starts)
    pair_s = statistics.fmean(pair.seconds for start in measured.starts for pair in start.pairs)
    return PairingFindings(whole_sd, round_s, effects, start_s, pair_s,
                           tuple(verdict(whole_sd, round_s, effects, start_s, pair_s, precision)
                                 for precision in PRECISIONS))


def study_document(plan: PairingPlan, measured: PairingMeasurements, found: PairingFindings,
                   host: HostInfo, date: str) -> dict:
    """The JSON file: the settings, every measurement, and the findings."""
    bench = plan.bench
    return {
        "format_version": FORMAT_VERSION, "study": "pairing", "date": date,
        "host": asdict(host), "jdk": measured.java,
        "settings": {"server": plan.server.key, "backend": bench.backend,
                     "threads": bench.points[0].threads,
                     "connections": bench.points[0].connections,
                     "duration_s": bench.duration_s,
                     "phases": {phase.name: phase.duration_s for phase in bench.phases},
                     "rounds": plan.rounds, "starts": plan.starts, "pairs": plan.pairs,
                     "ports": list(plan.ports)},
        "whole_rounds": [asdict(one) for one in measured.rounds],
        "alternating_starts": [asdict(start) for start in measured.starts],
        "findings": {"whole_round_log_sd": found.whole_sd,
                     "round_seconds": found.round_seconds,
                     "sigma_w": found.effects.sigma_w, "sigma_b": found.effects.sigma_b,
                     "sigma_b_upper": found.effects.sigma_b_upper,
                     "start_seconds": found.start_seconds, "pair_seconds": found.pair_seconds,
                     "verdicts": [_verdict_json(one) for one in found.verdicts]},
    }


def _verdict_json(one: Verdict) -> dict:
    return {"precision": one.precision, "alternating_cheaper": one.alternating_cheaper,
            **{name: None if cost is None else {**asdict(cost), "minutes": cost.minutes}
               for name, cost in (("whole", one.whole), ("alternating", one.alternating),
                                  ("alternating_at_upper", one.alternating_at_upper))}}


def study_page(plan: PairingPlan, measured: PairingMeasurements, found: PairingFindings,
               host: HostInfo, date: str) -> str:
    """The Markdown page."""
    bench, effects = plan.bench, found.effects
    point = bench.points[0]
    return (
        f"# Whole rounds or alternating pairs\n\n"
        f"An A/A of {plan.server.key} measured by `make pairing-study` on {date}: "
        f"{host.describe()}, JDK {measured.java or 'unknown'}, backend {bench.backend}, "
        f"wrk -t{point.threads} -c{point.connections} -d{bench.duration}. "
        f"Method: docs/method.md, \"Whole rounds or alternating pairs\".\n\n"
        f"| design | measured | spread of log(B/A) | seconds |\n| --- | --- | --- | --- |\n"
        f"| whole rounds | {len(measured.rounds)} rounds | paired SD {_pct(found.whole_sd)} "
        f"| {found.round_seconds:.0f} per round |\n"
        f"| alternating pairs | {len(measured.starts)} starts × {plan.pairs} pairs "
        f"| σ_w {_pct(effects.sigma_w)}, σ_b {_pct(effects.sigma_b)} (95 % upper bound "
        f"{_pct(effects.sigma_b_upper)}) | {found.start_seconds:.0f} per start + "
        f"{found.pair_seconds:.0f} per pair |\n\n"
        f"| 95 % interval | whole rounds | alternating pairs | at σ_b's upper bound "
        f"| alternating cheaper |\n| --- | --- | --- | --- | --- |\n"
        + "".join(_verdict_row(one) for one in found.verdicts)
        + f"\n{_conclusion(found.verdicts)}\n")


def _verdict_row(one: Verdict) -> str:
    return (f"| ±{one.precision:.0%} | {_cost(one.whole, 'rounds')} "
            f"| {_cost(one.alternating, 'starts')} | {_cost(one.alternating_at_upper, 'starts')} | "
            f"{'yes' if one.alternating_cheaper else 'no'} |\n")


def _cost(cost: Cost | None, units: str) -> str:
    """'10.5 min (7 rounds)', '8.0 min (3 starts × 7 pairs)'."""
    if cost is None:
        return "out of reach"
    pairs = f" × {cost.pairs} pairs" if units == "starts" else ""
    return f"{cost.minutes:.1f} min ({cost.starts} {units}{pairs})"


def _conclusion(verdicts: tuple[Verdict, ...]) -> str:
    cheaper = [f"±{one.precision:.0%}" for one in verdicts if one.alternating_cheaper]
    bound = f"σ_b's one-sided {UPPER_BOUND_CONFIDENCE:.0%} upper bound"
    if cheaper:
        return (f"Alternating pairs reach {' and '.join(cheaper)} in fewer minutes than "
                f"whole rounds, at the estimated σ_b and at {bound}.")
    return (f"Alternating pairs are not shown cheaper than whole rounds: at {bound} (or "
            f"already at its estimate) they need as many minutes or more.")


def _pct(log_sd: float) -> str:
    return f"{log_sd:.1%}"
