"""Each round's maximum from its steps, with the rounds the host left undetermined: they
count neither for nor against the server, and their words name the step and the host."""

from __future__ import annotations

from httplab.model import RateStep, StepPurpose, StepVerdict, SustainedRate
from httplab.results.sustained import sustained_rates

H, P99, HOST = StepVerdict.HELD, StepVerdict.P99, StepVerdict.HOST
HOST_WORDS = "p99 23.5 ms over the target of 10.0 ms while the host was busy with other work"


def step(rate: float, verdict: StepVerdict, repeat: int, reason: str = "") -> RateStep:
    return RateStep("undertow", rate, 20, StepPurpose.SEARCH, verdict,
                    reason or verdict.value, repeat)


def test_a_round_the_host_never_left_clean_has_no_maximum_and_says_why():
    steps = (step(1000, HOST, 1, HOST_WORDS), step(1000, HOST, 1, HOST_WORDS),
             step(1000, HOST, 1, HOST_WORDS),
             step(1000, H, 2), step(2000, P99, 2, "p99 30 ms"), step(2000, P99, 2, "p99 31 ms"))
    (rate,) = sustained_rates(steps)
    assert rate.rounds == (None, 1000.0) and rate.host_rounds == (1,)
    assert rate.value == 1000.0 and not rate.not_determined  # from the clean round alone
    assert rate.broke_at == (f"not determined: 1000/s: {HOST_WORDS}", "2000/s: p99 30 ms")


def test_every_round_undetermined_leaves_no_value():
    rate = SustainedRate("a", (None, None), host_rounds=(1, 2))
    assert rate.value is None and rate.not_determined and rate.determined_rounds == ()


def test_a_round_with_no_held_rate_is_still_the_servers():
    rate = SustainedRate("a", (None, 1000.0))
    assert rate.value is None and not rate.not_determined
