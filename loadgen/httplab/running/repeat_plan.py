"""REPEAT and, with REPEAT=auto, PRECISION, MAX_REPEAT and METRIC: how many rounds a run has,
or the rule that adds them (results/adaptive_rounds.py), validated before any load. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from httplab.axes import Variant
from httplab.bench_settings import AUTO_REPEAT, DEFAULTS, ROUND_METRICS
from httplab.manifest import ServerManifest
from httplab.model import AutoRepeat
from httplab.plan_error import PlanError
from httplab.results.paired_ratio import MIN_ROUNDS

REPEAT_LIMIT = 1000
AUTO_ONLY = ("precision", "max-repeat", "metric")  # the settings of REPEAT=auto alone


def parse_rounds(typed: Mapping[str, str]) -> tuple[int, AutoRepeat | None]:
    """The rounds a run has at most, and REPEAT=auto's rule (None: REPEAT=N, N rounds).
    typed: every flag's text, defaults included."""
    rule = AutoRepeat(parse_precision(typed["precision"]),
                      parse_max_repeat(typed["max-repeat"]), parse_metric(typed["metric"]))
    if typed["repeat"].strip() == AUTO_REPEAT:
        return rule.max_repeat, rule
    changed = [flag for flag in AUTO_ONLY if typed[flag].strip() != DEFAULTS[flag]]
    if changed:
        names = " and ".join(flag.upper().replace("-", "_") for flag in changed)
        raise PlanError(f"{names} apply to REPEAT={AUTO_REPEAT} only; with REPEAT="
                        f"{typed['repeat'].strip()} the rounds are fixed: set REPEAT="
                        f"{AUTO_REPEAT} or leave {names} out")
    return parse_repeat(typed["repeat"]), None


def parse_repeat(text: str) -> int:
    text = text.strip()
    if not text.isdigit() or not 1 <= int(text) <= REPEAT_LIMIT:
        raise PlanError(f"REPEAT must be a whole number from 1 to {REPEAT_LIMIT}, or "
                        f"{AUTO_REPEAT}; got {text!r}")
    return int(text)


def parse_precision(text: str) -> float:
    """PRECISION: a percentage above 0 and below 100 ('5' or '5%') -> a fraction (0.05)."""
    try:
        percent = float(text.strip().removesuffix("%"))
    except ValueError:
        percent = -1.0
    if not 0 < percent < 100:
        raise PlanError(f"PRECISION must be a percentage above 0 and below 100, such as 5 "
                        f"(±5 %); got {text!r}")
    return percent / 100


def parse_max_repeat(text: str) -> int:
    text = text.strip()
    if not text.isdigit() or not MIN_ROUNDS <= int(text) <= REPEAT_LIMIT:
        raise PlanError(f"MAX_REPEAT must be a whole number from {MIN_ROUNDS} (the rounds an "
                        f"interval needs) to {REPEAT_LIMIT}; got {text!r}")
    return int(text)


def parse_metric(text: str) -> str:
    if text.strip() not in ROUND_METRICS:
        raise PlanError(f"METRIC takes {' or '.join(ROUND_METRICS)}; got {text!r}")
    return text.strip()


def check_pairs(servers: tuple[ServerManifest, ...], rule: AutoRepeat | None) -> None:
    """REPEAT=auto narrows the intervals of variants compared: a run without two variants of
    a framework that differ on one axis has none, and stops here."""
    if rule is None or any(_one_axis_apart(*two) for two in combinations(servers, 2)):
        return
    raise PlanError(f"REPEAT={AUTO_REPEAT} adds rounds until every pair of variants compared "
                    "is measured within PRECISION, and this run compares none: list two "
                    "values of an axis (e.g. JDK=17,25 or SETTINGS=original,default), or set "
                    f"REPEAT to a number of rounds (REPEAT={MIN_ROUNDS})")


def _one_axis_apart(first: ServerManifest, second: ServerManifest) -> bool:
    """Both run, are variants of one framework, and differ on exactly one axis."""
    if first.not_applicable or second.not_applicable or first.is_reference \
            or second.is_reference:
        return False
    one, two = Variant.of_key(first.key), Variant.of_key(second.key)
    differ = [axis for axis in one.axes if one.axes[axis] != two.axes.get(axis)]
    return one.name == two.name and len(differ) == 1
