"""docs/findings.md held to the runs it quotes: every comparison it quotes, written as
`1.23× (1.13–1.33, q 0.009)` (or, in a protocol ladder, `(1.41×, 1.15–1.73, q 0.049)`),
is one of its run's `variants_compared` in results.json, to the printed precision; the
run is the one its paragraph or table row names (a table row that names none takes the
run last named in the text above the table), and the paragraph or row names the
comparison's framework. The words after a quote agree with its q-value: "faster",
"slower", "less CPU" and "more CPU" only below 0.05 and in the direction of the estimate,
"not distinguishable" only at 0.05 or above, among as many comparisons as the run made of
that figure. Each check is first shown to fail on a hand-broken copy."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from httplab.paths import DEFAULT_REPO
from httplab.run_layout import RESULTS_JSON

from tests.support.doc_copy import copy_docs_and_runs, edit_once

# Not in backticks: an example of the form, as findings.md's own explanation gives one.
QUOTE = re.compile(r"(?<![\d.`])(?<!`\()(?P<ratio>\d+\.\d+)×(?: \(|, )"
                   r"(?P<low>\d+\.\d+)–(?P<high>\d+\.\d+), q (?P<q>< 0\.001|\d\.\d+)\)")
# An estimate with its interval and no q-value: the form before the comparisons were counted.
UNCOUNTED = re.compile(r"\d\.\d+×(?: \(|, )\d+\.\d+[–-]\d+\.\d+×?\)")
RUN = re.compile(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ")
# A verdict's words end where the next quote, table cell, clause or sentence begins.
VERDICT_END = re.compile(r"\||;|\.(?:\s|$)")
AMONG = re.compile(r"not distinguishable from the noise among (\d+) comparisons")
FRAMEWORK_NAMES = {"netty": "Netty", "vertx": "Vert.x", "armeria": "Armeria",
                   "undertow": "Undertow", "tomcat": "Tomcat", "webflux": "WebFlux",
                   "helidon": "Helidon", "nginx": "nginx"}
RATE_METRICS = {"requests_per_sec", "max_sustainable_rate"}
CPU_METRICS = {"cpu_us_per_request", "common_rate_cpu_us_per_request"}


def units(text: str) -> list[tuple[str, str]]:
    """(unit, run named above it) for each paragraph, list item and table row: a table row
    that names no run takes the one last named in the text before its table."""
    found, above = [], ""
    for block in re.split(r"\n\s*\n", text):
        lines = [line.strip() for line in block.splitlines()]
        if lines and all(line.startswith("|") for line in lines):
            found += [(line, above) for line in lines]
            continue
        items = re.split(r"\n(?=\s*- )", block)
        found += [(" ".join(item.split()), "") for item in items]
        runs = RUN.findall(block)
        above = runs[-1] if runs else above
    return found


def _printed(value: float, like: str) -> str:
    """The value to as many decimals as `like` has; `< 0.001` as the pages print it."""
    if like.startswith("<"):
        return like if value < 0.001 else f"{value:.3f}"
    return f"{value:.{len(like.partition('.')[2])}f}"


def _matches(quote: re.Match, comparison: dict) -> bool:
    if comparison.get("q_value") is None:
        return False
    return all(_printed(comparison[key], quote[name]) == quote[name] for key, name in
               (("ratio", "ratio"), ("low", "low"), ("high", "high"), ("q_value", "q")))


def _verdict_drift(words: str, comparison: dict, shown: str) -> list[str]:
    q, ratio, metric = comparison["q_value"], comparison["ratio"], comparison["metric"]
    claims = {"faster": ratio > 1 and metric in RATE_METRICS,
              "slower": ratio < 1 and metric in RATE_METRICS,
              "less CPU": ratio < 1 and metric in CPU_METRICS,
              "more CPU": ratio > 1 and metric in CPU_METRICS}
    problems = [f"{shown} says {word!r}; " + (f"its q is {q:.3f}" if q >= 0.05 else
                                              f"the run's {metric} is {ratio:.3f}×")
                for word, holds in claims.items() if word in words and (q >= 0.05 or not holds)]
    if "not distinguishable" in words and q < 0.05:
        problems.append(f"{shown} says 'not distinguishable'; its q is {q:.3f}")
    problems += [f"{shown} counts {among} comparisons; the run made {comparison['among']}"
                 for among in AMONG.findall(words) if int(among) != comparison["among"]]
    return problems


def _comparisons(repo: Path, run: str) -> list[dict] | None:
    path = repo / "results" / run / RESULTS_JSON
    return json.loads(path.read_text()).get("variants_compared", []) if path.is_file() else None


def _quote_drift(quote: re.Match, unit: str, run: str, words: str, repo: Path) -> list[str]:
    """The quote is one of its run's comparisons, of a framework its unit names, and its
    words agree with that comparison's q-value."""
    comparisons = _comparisons(repo, run)
    if comparisons is None:
        return [f"{quote[0]} quotes {run}, which results/ does not hold"]
    found = [one for one in comparisons
             if _matches(quote, one) and FRAMEWORK_NAMES[one["framework"]] in unit]
    if not found:
        return [f"{quote[0]} is none of {run}'s comparisons of a framework its text names"]
    end = VERDICT_END.search(words)
    return _verdict_drift(words[:end.start()] if end else words, found[0], quote[0])


def quotes_drift(repo: Path) -> list[str]:
    """Every quoted comparison found in its run, with its framework named and its words
    agreeing with its q-value; no estimate with an interval and no q."""
    problems = []
    for unit, above in units((repo / "docs" / "findings.md").read_text()):
        problems += [f"an interval without its q: {old[0]!r}" for old in UNCOUNTED.finditer(unit)]
        quotes = list(QUOTE.finditer(unit))
        for quote, following in zip(quotes, [*quotes[1:], None]):
            runs = RUN.findall(unit[:quote.start()]) or [above]
            if not runs[-1]:
                problems.append(f"{quote[0]} names no run: {unit[:80]!r}")
                continue
            words = unit[quote.end():following.start() if following else len(unit)]
            problems += _quote_drift(quote, unit, runs[-1], words, repo)
    return problems


@pytest.fixture
def lab_copy(tmp_path) -> Path:
    return copy_docs_and_runs(tmp_path)


def test_every_comparison_findings_quotes_is_its_runs():
    quoted = sum(len(QUOTE.findall(unit)) for unit, _ in
                 units((DEFAULT_REPO / "docs" / "findings.md").read_text()))
    assert quoted >= 50
    assert quotes_drift(DEFAULT_REPO) == []


def test_a_changed_figure_is_caught(lab_copy):
    findings = lab_copy / "docs" / "findings.md"
    edit_once(findings, "| 1.23× (1.13–1.33, q 0.009): 23 % faster",
          "| 1.25× (1.13–1.33, q 0.009): 23 % faster")
    assert quotes_drift(lab_copy) == [
        "1.25× (1.13–1.33, q 0.009) is none of 2026-11-26T12-00-18Z's comparisons of a "
        "framework its text names"]


def test_a_changed_q_or_interval_is_caught(lab_copy):
    findings = lab_copy / "docs" / "findings.md"
    edit_once(findings, "35.6 µs (1.41×, 1.15–1.73, q 0.049)",
          "35.6 µs (1.41×, 1.15–1.73, q 0.04)")
    edit_once(findings, "92.5 µs (3.09×, 2.33–4.11, q 0.012)",
          "92.5 µs (3.09×, 2.33–4.21, q 0.012)")
    assert quotes_drift(lab_copy) == [
        "3.09×, 2.33–4.21, q 0.012) is none of 2026-11-27T01-24-56Z's comparisons of a "
        "framework its text names",
        "1.41×, 1.15–1.73, q 0.04) is none of 2026-11-27T02-38-29Z's comparisons of a "
        "framework its text names"]


def test_a_quote_given_another_framework_or_run_or_none_is_caught(lab_copy):
    findings = lab_copy / "docs" / "findings.md"
    edit_once(findings, "| Undertow (16 workers against 200) | 10 |", "| Tomcat | 10 |")
    assert len(quotes_drift(lab_copy)) == 2
    edit_once(findings, "(`results/2026-11-24T15-10-47Z/`", "(`results/2026-11-24T15-07-00Z/`")
    problems = quotes_drift(lab_copy)
    assert len(problems) == 6 and all("is none of" in problem for problem in problems)
    edit_once(findings, "(`results/2026-11-24T15-07-00Z/`", "(`results/`")
    problems = quotes_drift(lab_copy)
    assert len(problems) == 6 and sum("names no run" in problem for problem in problems) == 4


def test_a_verdict_the_q_does_not_allow_is_caught(lab_copy):
    findings = lab_copy / "docs" / "findings.md"
    edit_once(findings, "0.73× (0.61–0.87, q 0.055): not distinguishable from the noise among 10 "
                    "comparisons |", "0.73× (0.61–0.87, q 0.055): 27 % less CPU per request |")
    edit_once(findings, "0.58× (0.47–0.71, q 0.031): 42 % less CPU per request |",
          "0.58× (0.47–0.71, q 0.031): not distinguishable from the noise among 4 comparisons |")
    edit_once(findings, "1.10× (0.92–1.32, q 0.292): not distinguishable from the noise among 4 "
                    "comparisons |", "1.10× (0.92–1.32, q 0.292): not distinguishable from the "
                                     "noise among 5 comparisons |")
    assert quotes_drift(lab_copy) == [
        "1.10× (0.92–1.32, q 0.292) counts 5 comparisons; the run made 4",
        "0.73× (0.61–0.87, q 0.055) says 'less CPU'; its q is 0.055",
        "0.58× (0.47–0.71, q 0.031) says 'not distinguishable'; its q is 0.031"]


def test_a_verdict_against_the_estimates_direction_is_caught(lab_copy):
    findings = lab_copy / "docs" / "findings.md"
    edit_once(findings, "0.71× (0.61–0.82, q 0.011): 29 % less CPU per request",
          "0.71× (0.61–0.82, q 0.011): 29 % more CPU per request")
    assert quotes_drift(lab_copy) == [
        "0.71× (0.61–0.82, q 0.011) says 'more CPU'; the run's cpu_us_per_request is 0.707×"]


def test_an_interval_quoted_without_its_q_is_caught(lab_copy):
    findings = lab_copy / "docs" / "findings.md"
    edit_once(findings, "| 1.23× (1.13–1.33, q 0.009): 23 % faster",
          "| 1.23× (1.13–1.33×): 23 % faster")
    assert quotes_drift(lab_copy) == ["an interval without its q: '1.23× (1.13–1.33×)'"]
