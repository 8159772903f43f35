"""What results.md adds when a run measured a framework under two or more variants
(SETTINGS=original,default, PROFILE=0,1): each figure of a variant against its base, the
paired estimate, its interval over the paired rounds, its q-value and the verdict in words
(results/variants.py, wording/variants.py); with REPEAT=auto, the precision each pair
reached (auto_repeat.py). Pure."""

from __future__ import annotations

from httplab.model import BenchResult, RunKind
from httplab.presentation.markdown.auto_repeat import rounds_reached_section
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.wording.variants import (ESTIMATE_SAID, METRIC_LABELS,
                                                    comparisons_counted, format_interval,
                                                    format_q, paired_verdict, rounds_text)
from httplab.results.paired_ratio import CONFIDENCE, MIN_ROUNDS
from httplab.results.variants import VariantComparison, variant_comparisons

VARIANTS_INTRO = (f"Variants compared (each framework measured in this run under two "
                  f"variants, round by round: {ESTIMATE_SAID}, so a verdict needs "
                  f"{MIN_ROUNDS} rounds or more; docs/method.md, \"A/B in one run\"):")
VARIANTS_HEADER = ("Framework", "Threads", "Connections", "Metric", "Base", "Other",
                   "Estimate", f"{CONFIDENCE:.0%} interval", "q", "Rounds", "Verdict")
POINT_COLUMNS = slice(1, 3)  # threads and connections: a bench's cells have them


def variants_section(result: BenchResult) -> list[str]:
    """The intro and the table, after a blank line; none without a pair of variants."""
    comparisons = variant_comparisons(result)
    if not comparisons:
        return []
    workloads = len({one.workload for one in comparisons}) > 1
    header = VARIANTS_HEADER[:1] + ("Workload",) * workloads + VARIANTS_HEADER[1:]
    rows = [_row(result, one, workloads) for one in comparisons]
    if result.kind is RunKind.LATENCY:
        header, rows = _without_points(header, workloads), [
            _without_points(row, workloads) for row in rows]
    return ["", VARIANTS_INTRO, "", comparisons_counted(comparisons), "",
            *markdown_table(header, rows), *rounds_reached_section(result, comparisons)]


def _without_points(row: tuple[str, ...], workloads: bool) -> tuple[str, ...]:
    start = POINT_COLUMNS.start + workloads
    return row[:start] + row[start + 2:]


def _row(result: BenchResult, one: VariantComparison, workloads: bool) -> tuple[str, ...]:
    record = result.server(one.base)
    figures = one.figures
    return (record.framework if record else one.framework,
            *((one.workload.label,) * workloads), str(one.threads), str(one.connections),
            METRIC_LABELS[one.metric], result.label(one.base), result.label(one.other),
            MISSING if figures.ratio is None else f"{figures.ratio:.3f}×",
            format_interval(figures), format_q(figures), rounds_text(figures),
            paired_verdict(result.label(one.other), figures, one.metric))
