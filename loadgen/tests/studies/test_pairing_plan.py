"""make pairing-study's plan: its defaults, each setting it refuses in one line, the two
sides on their ports, and the order its two designs run in."""

from __future__ import annotations

import pytest

from httplab.plan_error import PlanError
from httplab.studies.pairing_plan import (ALTERNATING, STUDY_PORTS, WHOLE, Step,
                                          make_pairing_plan, schedule)

from tests.support.plans import CPUS, KNOWN, PROFILE_KNOWN


def _plan(**settings: str):
    return make_pairing_plan({"servers": "alpha", "threads": "10", **settings}, KNOWN, CPUS)


def test_the_defaults_are_eight_rounds_and_four_starts_of_six_pairs_on_two_ports():
    plan = _plan()
    assert (plan.rounds, plan.starts, plan.pairs) == (8, 4, 6)
    assert plan.ports == STUDY_PORTS == (18081, 18082)
    assert [side.port for side in plan.sides] == [18081, 18082]
    assert plan.measured(plan.sides[1]).url == "http://127.0.0.1:18082/"
    assert (plan.measured(plan.sides[0]).threads, plan.bench.duration_s) == (10, 10)
    assert [phase.name for phase in plan.bench.phases] == ["primer", "warmup"]
    # 2 sides × 8 rounds × (5 + 10 + 10) s, and 4 starts × 2 × (5 + 10 + 6 × 10) s
    assert plan.load_seconds == 400 + 600


@pytest.mark.parametrize("settings, said", [
    ({"servers": "alpha,beta"}, "SERVERS names one"),
    ({"jdk": "17,25"}, "SERVERS names one"),
    ({"threads": "10,5"}, "one THREADS and one CONNECTIONS"),
    ({"connections": "100,500"}, "one THREADS and one CONNECTIONS"),
    ({"rounds": "2"}, "ROUNDS takes a whole number, 3 or more"),
    ({"starts": "x"}, "STARTS takes a whole number, 3 or more"),
    ({"pairs": "1"}, "PAIRS takes a whole number, 2 or more"),
    ({"duration": "ten"}, "DURATION"),
])
def test_a_setting_that_cannot_work_stops_with_one_line(settings, said):
    with pytest.raises(PlanError, match=said):
        _plan(**settings)


def test_the_reference_is_not_measured_against_itself():
    with pytest.raises(PlanError, match="not the reference"):
        make_pairing_plan({"servers": "ref"}, PROFILE_KNOWN, CPUS)


def test_two_sides_need_two_ports():
    with pytest.raises(PlanError, match="two ports"):
        make_pairing_plan({"servers": "alpha", "threads": "10"}, KNOWN, CPUS, (18181, 18181))


@pytest.mark.parametrize("rounds, starts, expected", [
    (8, 4, "WWA AWW WWA AWW"),
    (3, 3, "WA AW WA"),
    (4, 3, "WA AWW WA"),
])
def test_the_designs_interleave_turn_about(rounds, starts, expected):
    steps = schedule(rounds, starts)
    assert "".join("W" if step.design == WHOLE else "A" for step in steps) == \
        expected.replace(" ", "")
    assert [step.number for step in steps if step.design == WHOLE] == list(range(1, rounds + 1))
    assert [step for step in steps if step.design == ALTERNATING] == \
        [Step(ALTERNATING, number) for number in range(1, starts + 1)]
