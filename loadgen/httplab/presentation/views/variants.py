"""What the chart of variants compared draws: each figure of a variant against its base
that has a ratio (results/variants.py), and whether the run has any. Pure."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.results.variants import VariantComparison, variant_comparisons


def charted_comparisons(result: BenchResult) -> list[VariantComparison]:
    """The run's variants compared that have a ratio of medians, in the table's order."""
    return [one for one in variant_comparisons(result) if one.figures.ratio is not None]


def has_variants_chart(result: BenchResult) -> bool:
    return bool(charted_comparisons(result))
