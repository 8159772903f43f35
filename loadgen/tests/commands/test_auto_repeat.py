"""REPEAT=auto through make bench's steps and the real Runner, on the fake backend whose wrk
reports are scaled round by round: rounds are added while the pair's interval is wider than
PRECISION, and stop once it is narrow, or at MAX_REPEAT with the pair named."""

from __future__ import annotations

import io
import json

from httplab.checking.conformance import CheckResult, Verification
from httplab.commands.bench import BenchSteps
from httplab.commands.run_lifecycle import RunRecord
from httplab.model import HostInfo
from httplab.presentation.markdown.results import render_bench_markdown
from httplab.results.adaptive_rounds import RoundsWhy, rounds_reached
from httplab.run_layout import RunStem
from httplab.running.plan import make_plan
from httplab.running.progress import Progress
from httplab.running.run_context import RunContext

from tests.support.fake_backend import WRK, FakeBackend
from tests.support.plans import CPUS, KNOWN, plan_settings

BASE, OTHER = "alpha@jdk17", "alpha"  # JDK=17,25: the first listed is the base


class ScaledWrkBackend(FakeBackend):
    """'Runs' wrk as the fake does, then scales the requests the other variant completed by
    its next factor: the ratio of the pair's round r is factors[r - 1]."""

    def __init__(self, factors: list[float]):
        super().__init__()
        self.factors, self.calls = factors, {BASE: 0, OTHER: 0}

    def verify(self, started, workloads=()):
        """Passed at once: the checks take a second a start and are not this test's."""
        return Verification((CheckResult("answers", True),))

    def run_wrk(self, request, text_path, json_path, cpus=None):
        outcome = super().run_wrk(request, text_path, json_path, cpus)
        server = RunStem.parse(text_path.stem).server
        self.calls[server] += 1
        if server == OTHER:
            document = json.loads(json_path.read_text())
            document["requests"] = round(document["requests"] * self.factors[
                self.calls[server] - 1])
            json_path.write_text(json.dumps(document))
        return outcome


def _run(tmp_path, factors, **options):
    plan = make_plan(plan_settings("alpha", "10", "20", "1s", jdk="17,25", repeat="auto",
                                   **options), KNOWN, CPUS)
    steps, output = BenchSteps(plan), io.StringIO()
    record = RunRecord(tmp_path, "2026-11-28T00-00-00Z", None, HostInfo(cores=2), (), {})
    context = RunContext(ScaledWrkBackend(factors), plan, tmp_path / "raw",
                         Progress(plan, output))
    (tmp_path / "raw").mkdir()
    steps.run(context, record, record.outcomes.append)
    return steps.result(record), output.getvalue()


def test_rounds_are_added_while_the_interval_is_wide_and_stop_once_it_is_narrow(tmp_path):
    # Rounds 1 to 3 disagree (±20 % and more); rounds 4 and 5 agree enough for ±10 %.
    factors = [1.10, 1.20, 1.00, 1.10, 1.10, 1.10, 1.10, 1.10]
    result, progress = _run(tmp_path, factors, precision="10", max_repeat="8")
    reached = rounds_reached(result)
    assert (reached.decision.why, result.settings.repeat) == (RoundsWhy.NARROW, 5)
    assert {cell.rounds for cell in result.cells} == {(1, 2, 3, 4, 5)}
    (pair,) = reached.pairs
    assert pair.narrowed and pair.rounds == 5 and pair.half_width <= 0.10
    assert progress.count(": another round; the widest pair") == 4
    assert "round 5 of at most 8 done: every pair within ±10.0 %: no more rounds; the widest " \
           "pair: alpha against alpha@jdk17 (requests_per_sec, 10 threads, 20 connections): " \
           f"±{pair.half_width * 100:.1f} % over 5 paired rounds, about 0 more rounds expected" \
           in progress


def test_a_pair_that_never_narrows_stops_at_max_repeat_and_is_named(tmp_path):
    result, progress = _run(tmp_path, [1.0, 1.5] * 3, precision="1", max_repeat="4")
    assert result.settings.repeat == 4
    assert {cell.rounds for cell in result.cells} == {(1, 2, 3, 4)}
    reached = rounds_reached(result)
    assert reached.decision.why is RoundsWhy.LIMIT
    assert [pair.comparison.other for pair in reached.not_narrowed] == [OTHER]
    assert "round 4 of at most 4 done: still wider than ±1.0 % at MAX_REPEAT: no more rounds" \
        in progress
    markdown = render_bench_markdown(result)
    assert "ran 4 rounds: MAX_REPEAT reached with 1 pair wider than ±1.0 %" in markdown
    assert "never narrowed to ±1.0 %: its rounds' ratios spread by" in markdown
