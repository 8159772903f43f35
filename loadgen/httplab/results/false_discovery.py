"""A run's many comparisons counted: Benjamini and Hochberg's (1995) adjusted p-values
(q-values), so that a run of twenty intervals does not speak of the one that excludes 1 by
chance. Among the comparisons whose q-value is below FDR_LEVEL, the expected share of false
discoveries is at most FDR_LEVEL, and with no real difference among them the chance of any
verdict at all is at most FDR_LEVEL. SciPy's false_discovery_control does the adjustment.
Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from scipy.stats import false_discovery_control

FDR_LEVEL = 0.05
CONFIDENCE_OF_ONE = 0.95  # of each interval: what one comparison excludes by chance


def q_values(p_values: Sequence[float | None]) -> list[float | None]:
    """Each p-value's q-value among the others given (None passes through, uncounted)."""
    counted = [index for index, p in enumerate(p_values) if p is not None]
    if not counted:
        return [None] * len(p_values)
    adjusted = false_discovery_control([p_values[index] for index in counted], method="bh")
    q = [None] * len(p_values)
    for index, value in zip(counted, adjusted):
        q[index] = float(value)
    return q


class Countable(Protocol):
    """A comparison's figures: its p-value, and the same figures with a q-value."""

    p_value: float | None

    def counted(self, q_value: float | None, among: int) -> "Countable": ...


C = TypeVar("C", bound=Countable)


def count_family(figures: Sequence[C | None]) -> list[C | None]:
    """One family's figures (the comparisons of one figure) with their q-values among those
    that have a p-value; the others (and None) pass through uncounted."""
    family = [index for index, one in enumerate(figures)
              if one is not None and one.p_value is not None]
    adjusted = dict(zip(family, q_values([figures[index].p_value for index in family])))
    return [one.counted(adjusted[index], len(family)) if index in adjusted else one
            for index, one in enumerate(figures)]


def discovered(q_value: float | None) -> bool:
    """A difference worth a word: its q-value is below the false-discovery level."""
    return q_value is not None and q_value < FDR_LEVEL


def excluded_by_chance(comparisons: int) -> float:
    """How many of `comparisons` intervals would exclude 1 with no difference at all."""
    return comparisons * (1 - CONFIDENCE_OF_ONE)
