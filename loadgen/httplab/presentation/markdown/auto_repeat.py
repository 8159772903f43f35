"""What results.md adds under "Variants compared" when the run chose REPEAT=auto: why it ran
the rounds it did, and each pair's precision reached (wording/auto_repeat.py). Pure."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.wording.auto_repeat import (pair_precision_sentences,
                                                       rounds_reached_sentence)
from httplab.results.adaptive_rounds import rounds_reached
from httplab.results.variants import VariantComparison


def rounds_reached_section(result: BenchResult,
                           comparisons: tuple[VariantComparison, ...]) -> list[str]:
    """The sentence and a bullet per pair, after a blank line; none with a fixed REPEAT."""
    reached = rounds_reached(result, comparisons)
    if reached is None:
        return []
    return ["", rounds_reached_sentence(reached), "",
            *(f"- {sentence}" for sentence in pair_precision_sentences(result, reached))]
