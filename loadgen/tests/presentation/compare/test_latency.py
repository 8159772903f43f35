"""Comparing two make latency runs server by server (max sustainable rate, CPU per request at
the common rate) as the bench compares its cells (the estimate, its Welch interval, q-values
among the servers), and a bench against a latency run."""

from dataclasses import replace

import pytest

from httplab.model import StepPurpose, SustainedRate
from httplab.presentation.compare.bench import (IN_WORDS, cells_in_words, comparability_notes,
                                                compare_results, render_comparison)
from httplab.presentation.compare.latency import (HOST_UNDETERMINED, OTHER_RATE,
                                                  RERUN_ADVICE, TOOL_LIMIT, compare_costs, compare_maxima,
                                                  latency_comparability_notes)
from httplab.presentation.compare.runs import incomparable_reason, render_run_comparison

from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result

BASE = latency_sample_result()


def with_maximum(result, server: str, rounds: tuple, limited: bool = False,
                 host_rounds: tuple[int, ...] = ()):
    maxima = tuple(SustainedRate(server, rounds, limited, host_rounds=host_rounds)
                   if rate.server == server else rate
                   for rate in result.latency.maxima)
    return replace(result, latency=replace(result.latency, maxima=maxima))


def with_cost_scaled(result, server: str, factors: tuple[float, ...]):
    """The server's cost steps, round by round, with its CPU time times each factor."""
    scaled = iter(factors)
    steps = tuple(
        replace(step, resources=replace(step.resources,
                                        cpu_seconds=step.resources.cpu_seconds * next(scaled)))
        if step.server == server and step.purpose is StepPurpose.COST else step
        for step in result.latency.steps)
    return replace(result, latency=replace(result.latency, steps=steps))


def verdicts(comparisons) -> dict[str, str]:
    return {one.label: one.verdict for one in comparisons}


# (base rounds, base limited, new rounds, new limited, verdict) for Undertow
MAXIMA = [
    ((10000.0, 10500.0, 10200.0), False, (12000.0, 12500.0, 12200.0), False, "higher"),
    ((10000.0, 10500.0, 10200.0), False, (8000.0, 8200.0, 8100.0), False, "lower"),
    ((10000.0, 20000.0), False, (22000.0, 25000.0), False, "not distinguishable"),
    ((10000.0,), False, (30000.0,), False, "noise unknown"),
    ((None, 20000.0), False, (22000.0, 25000.0), False, "not judged (a round held no rate)"),
    ((20000.0, 20000.0), True, (15000.0, 15000.0), True, TOOL_LIMIT),  # new could be higher
    ((20000.0, 20000.0), True, (30000.0, 30000.0), False, TOOL_LIMIT),  # base could be higher
    ((20000.0, 20000.0), False, (30000.0, 30000.0), True, "higher"),  # at least higher
    ((20000.0, 20000.0), False, (20000.0, 20000.0), True, TOOL_LIMIT),
]


@pytest.mark.parametrize(("base_rounds", "base_limited", "new_rounds", "new_limited", "verdict"),
                         MAXIMA)
def test_max_sustainable_rates_are_judged_by_their_q_values_and_the_tools_limit(
        base_rounds, base_limited, new_rounds, new_limited, verdict):
    base = with_maximum(BASE, "undertow", base_rounds, base_limited)
    new = with_maximum(BASE, "undertow", new_rounds, new_limited)
    assert verdicts(compare_maxima(base, new))["Undertow (200 workers)"] == verdict


def test_the_value_compared_is_each_runs_lowest_round():
    new = with_maximum(BASE, "undertow", (22000.0, 30000.0))
    undertow = compare_maxima(BASE, new)[1]
    assert (undertow.base_value, undertow.new_value) == (10000.0, 22000.0)
    assert (undertow.base.maximum, undertow.new.minimum) == (20000.0, 22000.0)
    assert undertow.ratio == pytest.approx((22000 * 30000 / (10000 * 20000)) ** 0.5), \
        "the estimate is over every round"


def test_only_the_rounds_the_host_left_clean_are_compared():
    base = with_maximum(BASE, "undertow", (None, 20000.0, 20100.0), host_rounds=(1,))
    new = with_maximum(BASE, "undertow", (22000.0, 22100.0))
    undertow = compare_maxima(base, new)[1]
    assert (undertow.base_value, undertow.verdict) == (20000.0, "higher")  # not 0 req/s
    nowhere = with_maximum(BASE, "undertow", (None, None), host_rounds=(1, 2))
    assert verdicts(compare_maxima(nowhere, new))["Undertow (200 workers)"] == HOST_UNDETERMINED


@pytest.mark.parametrize(("factors", "verdict"), [
    ((1.5, 1.505), "costlier"), ((0.5, 0.502), "cheaper"), ((1.0, 1.2), "not distinguishable"),
    ((1.5, 1.6), "not distinguishable")])
def test_costs_at_the_common_rate_are_judged_in_words_of_cost(factors, verdict):
    new = with_cost_scaled(BASE, "netty", factors)
    assert verdicts(compare_costs(BASE, new))["Netty"] == verdict


def test_costs_at_other_common_rates_are_not_judged_and_a_note_says_so():
    new = replace(BASE, latency=replace(BASE.latency, cost_rate=15000.0))
    assert set(verdicts(compare_costs(BASE, new)).values()) == {OTHER_RATE}
    assert "cost_rate differs: base 10000.0, new 15000.0" in latency_comparability_notes(BASE, new)


def test_a_server_in_one_run_only_is_missing_in_the_other():
    latency = BASE.latency
    new = replace(BASE, latency=replace(
        latency, steps=tuple(s for s in latency.steps if s.server != "nginx"),
        maxima=tuple(r for r in latency.maxima if r.server != "nginx")))
    assert verdicts(compare_maxima(BASE, new))["nginx (reference)"] == "missing in new"
    assert verdicts(compare_costs(new, BASE))["nginx (reference)"] == "missing in base"


def test_notes_name_a_different_target_and_the_settings_that_matter():
    new = replace(BASE, latency=replace(BASE.latency, slo_p99_us=5000.0),
                  settings=replace(BASE.settings, threads=(2,), repeat=3))
    assert latency_comparability_notes(BASE, new) == [
        "repeat differs: base 2, new 3", "slo_p99_us differs: base 10000.0, new 5000.0"]


def clear_pair():
    """Undertow's maximum and Netty's cost clearly apart in every round."""
    base = with_maximum(BASE, "undertow", (10000.0, 10100.0))
    new = with_cost_scaled(with_maximum(BASE, "undertow", (22000.0, 22100.0)), "netty",
                           (0.5, 0.502))
    return base, new


def test_the_rendered_comparison_of_two_latency_runs():
    text = render_run_comparison(*clear_pair(), "results/a", "results/b")
    assert text.startswith("Latency runs, base results/a vs new results/b\nThe two runs make 6 "
                           "comparisons (3 of max sustainable rate, 3 of CPU per request at "
                           "the common rate): about 0.3 of their 95% intervals")
    assert "\n\nMax sustainable rate at p99 ≤ 10 ms" in text
    assert ("Undertow (200 workers)  10000 [10000–10100] n=2  22000 [22000–22100] n=2  2.19x  "
            "2.12–2.28×    0.002  higher") in text
    assert ("Netty                   30.0 [30.0–30.0] n=2   15.0 [15.0–15.1] n=2  0.50x  "
            "0.49–0.51×    0.006  cheaper") in text
    assert RERUN_ADVICE not in text


def test_one_round_asks_for_repeats():
    once = with_maximum(BASE, "netty", (20000.0,), True)
    assert RERUN_ADVICE in render_run_comparison(BASE, once, "a", "b")


def test_a_bench_and_a_latency_run_cannot_be_compared_in_one_line():
    for base, new in ((sample_result(), BASE), (BASE, sample_result())):
        text = render_run_comparison(base, new, "a", "b")
        assert text.count("\n") == 1 and text.startswith("cannot compare: base is a")
        assert incomparable_reason(base, new) == text.strip()
    assert incomparable_reason(BASE, BASE) is None


def test_two_benches_compare_as_before():
    base, new = sample_result(), sample_result()
    expected = ("Requests/sec, base a vs new b\n"
                + "".join(f"note: {note}\n" for note in comparability_notes(base, new))
                + render_comparison(compare_results(base, new))
                + "".join(f"{line}\n" for line in cells_in_words(compare_results(base, new))))
    assert render_run_comparison(base, new, "a", "b") == expected


def test_the_judged_figures_are_said_in_words():
    text = render_run_comparison(*clear_pair(), "a", "b")
    words = text.split(IN_WORDS + "\n", 1)[1].splitlines()
    assert words[0] == ("- Undertow (200 workers), max sustainable rate: new is 119 % faster "
                        "(112 to 128 %)")
    assert words[1].startswith("- nginx (reference), max sustainable rate: the same in every "
                               "round: both held the same of the rates offered")
    assert ("- Netty, CPU per request at the common rate: new costs 50 % less CPU per "
            "request (49 to 51 %)") in words
    assert not any(line.startswith("- Netty, max") for line in words), "a load tool limit"


def test_a_server_not_clear_among_the_others_is_not_named():
    new = with_maximum(BASE, "undertow", (22000.0, 25000.0))
    text = render_run_comparison(BASE, new, "a", "b")
    assert ("- Undertow (200 workers), max sustainable rate: not distinguishable from the "
            "noise among 3 comparisons: the interval spans") in text
