"""The verdict on a variant against its base, in words (wording/variants.py), table-driven:
faster, slower, costlier, cheaper, not distinguishable from the noise among the run's
comparisons, and too few rounds; how the rounds left out are said; make compare's verdict on
two runs in the same words, and the comparisons counted in the same sentence."""

import pytest

from httplab.presentation.wording.variants import (SAME_STEP, comparisons_counted,
                                                    counted_sentence, format_interval,
                                                    format_q, paired_verdict, rounds_text,
                                                    runs_sentence)
from httplab.results.paired_ratio import PairedRatio
from httplab.results.unpaired_ratio import UnpairedRatio
from httplab.results.variants import ComparedMetric, VariantComparison

RATE, CPU = ComparedMetric.REQUESTS_PER_SEC, ComparedMetric.CPU_PER_REQUEST
MAXIMUM, COST = ComparedMetric.MAX_SUSTAINABLE_RATE, ComparedMetric.COMMON_RATE_COST


def _counted(ratio, low, high, rounds, q, among=12):
    return PairedRatio(ratio, low, high, rounds, p_value=q / 2, q_value=q, among=among)


@pytest.mark.parametrize("figures, metric, sentence", [
    (_counted(1.12, 1.06, 1.18, 5, 0.01), RATE, "B is 12 % faster (6 to 18 %)"),
    (_counted(0.91, 0.87, 0.95, 5, 0.02), RATE, "B is 9 % slower (5 to 13 %)"),
    (_counted(1.02, 0.91, 1.14, 4, 0.6), RATE,
     "not distinguishable from the noise among 12 comparisons: the interval spans -9 to "
     "+14 %"),
    (_counted(1.12, 1.04, 1.21, 3, 0.03), CPU, "B costs 12 % more CPU per request (4 to 21 %)"),
    (_counted(0.80, 0.70, 0.90, 3, 0.04), COST,
     "B costs 20 % less CPU per request (10 to 30 %)"),
    (_counted(1.25, 1.10, 1.40, 3, 0.01), MAXIMUM, "B is 25 % faster (10 to 40 %)"),
    (_counted(1.0, 1.0, 1.0, 3, 1.0), MAXIMUM,
     "the same in every round: both held the same of the rates offered; only rates between "
     "those steps, or above the highest, could tell them apart"),
    (_counted(1.004, 1.001, 1.008, 3, 0.001), RATE, "B is 0.4 % faster (0.1 to 0.8 %)"),
    (PairedRatio(1.1, None, None, 1), RATE, "needs at least 3 rounds (this run has 1)"),
    (PairedRatio(1.1, None, None, 2), CPU, "needs at least 3 rounds (this run has 2)"),
    (PairedRatio(None, None, None, 0), RATE, "not measured on both sides"),
])
def test_the_verdict_in_words(figures, metric, sentence):
    assert paired_verdict("B", figures, metric) == sentence


def test_an_interval_that_excludes_1_is_not_a_difference_among_many():
    """p 0.03 alone would be a difference; its q-value among 20 comparisons is not."""
    figures = PairedRatio(1.15, 1.02, 1.30, 5, p_value=0.03, q_value=0.3, among=20)
    assert paired_verdict("B", figures, RATE) == (
        "not distinguishable from the noise among 20 comparisons: the interval spans +2 to "
        "+30 %")


def test_a_comparison_never_counted_is_its_own_family_of_one():
    assert paired_verdict("B", PairedRatio(1.15, 1.02, 1.30, 5, p_value=0.03), RATE) == (
        "B is 15 % faster (2 to 30 %)")


def test_the_interval_and_q_as_the_tables_show_them():
    assert format_interval(PairedRatio(0.83, 0.748, 0.883, 3)) == "0.75–0.88×"
    assert format_interval(PairedRatio(0.83, None, None, 2)) == "—"
    assert format_q(PairedRatio(0.83, 0.7, 0.9, 3, q_value=0.0123)) == "0.012"
    assert format_q(PairedRatio(0.83, 0.7, 0.9, 3, q_value=0.0001)) == "< 0.001"
    assert format_q(PairedRatio(0.83, None, None, 2)) == "—"


@pytest.mark.parametrize("figures, text", [
    (PairedRatio(1.0, 0.9, 1.1, 5), "5"),
    (PairedRatio(1.0, 0.9, 1.1, 4, lost_to_host=(3,)), "4 (round 3 left out: the host's)"),
    (PairedRatio(1.0, 0.9, 1.1, 3, unpaired=(4, 5)), "3 (rounds 4, 5 on one side only)"),
])
def test_the_rounds_left_out_are_said(figures, text):
    assert rounds_text(figures) == text


def test_the_run_says_how_many_comparisons_it_made_and_what_chance_alone_gives():
    counted = PairedRatio(1.1, 1.0, 1.2, 3, p_value=0.04, q_value=0.08, among=2)
    comparisons = [VariantComparison("netty", "JDK", "netty@jdk17", "netty", metric, counted)
                   for metric in (RATE, RATE, CPU)]
    comparisons.append(VariantComparison("netty", "JDK", "netty@jdk17", "netty", CPU,
                                         PairedRatio(1.1, None, None, 2)))
    assert comparisons_counted(comparisons).startswith(
        "This run made 3 comparisons (2 of Requests/sec, 1 of CPU per request): about 0.2 of "
        "their 95% intervals would exclude 1 by chance alone, and 0 stand out of the noise.")


def test_a_run_without_an_interval_says_so_instead_of_counting():
    alone = [VariantComparison("netty", "JDK", "netty@jdk17", "netty", RATE,
                               PairedRatio(1.1, None, None, 2))]
    assert comparisons_counted(alone) == (
        "No comparison in this run has the 3 paired rounds an interval needs.")


@pytest.mark.parametrize("figures, is_cost, rate_steps, sentence", [
    (UnpairedRatio(1.1, 1.08, 1.12, 3, 3, p_value=0.001, q_value=0.004, among=14), False,
     False, "new is 10 % faster (8 to 12 %)"),
    (UnpairedRatio(0.9, 0.88, 0.92, 3, 3, p_value=0.001), True, False,
     "new costs 10 % less CPU per request (8 to 12 %)"),
    (UnpairedRatio(1.03, 0.95, 1.04, 3, 3, p_value=0.01, q_value=0.2, among=14), False, False,
     "not distinguishable from the noise among 14 comparisons: the interval spans -5 to +4 %"),
    (UnpairedRatio(1.0, 1.0, 1.0, 2, 2, p_value=1.0, q_value=1.0, among=3), False, True,
     SAME_STEP),
    (UnpairedRatio(1.1, None, None, 1, 3), False, False, None),
    (UnpairedRatio(None, None, None, 3, 3), False, False, None),
], ids=["faster", "cheaper", "not distinguishable among 14", "the same rate step",
        "noise unknown", "a figure of 0"])
def test_make_compares_verdict_in_the_same_words(figures, is_cost, rate_steps, sentence):
    assert runs_sentence(figures, is_cost, rate_steps) == sentence


def test_the_comparisons_counted_are_one_sentence_for_a_run_and_for_two():
    assert counted_sentence("The two runs make", {"Requests/sec": 1}, 1).startswith(
        "The two runs make 1 comparison (1 of Requests/sec): about 0.1 of their 95% intervals "
        "would exclude 1 by chance alone, and 1 stands out of the noise.")
