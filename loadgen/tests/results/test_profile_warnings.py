"""A cell whose profile the consistency check marked gets a PROFILE warning, grouped with the
others of its cause; cells whose profiles add up, or that have none, get none."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import RunProfile, WarningKind
from httplab.results.profile_warnings import PROFILE_ADVICE, PROFILE_CAUSE, profile_warning
from httplab.results.profiles import cpu_mismatch
from httplab.results.warning_groups import kinds_in_words, warning_groups
from tests.profile_sample import profile_sample_result
from tests.results.test_warning_groups import measured, result_of


def profiled(samples: int, measured_cpu_seconds: float | None = 1.0) -> RunProfile:
    profile = RunProfile("cpu", 5_000_000, samples=samples, layers=(("kernel", samples),),
                         measured_cpu_seconds=measured_cpu_seconds)
    return replace(profile, mismatch=cpu_mismatch(profile))


AGREES, LOST = profiled(200), profiled(100)  # 1.0 s and 0.5 s of CPU, of 1.0 s measured


@pytest.mark.parametrize("profiles, detail", [
    ((), None),  # not profiled
    ((AGREES, AGREES, AGREES), None),
    ((AGREES, None, RunProfile("itimer", 5_000_000, failure="no stacks")), None),
    ((RunProfile("wall", 5_000_000, samples=10, measured_cpu_seconds=1.0),) * 3, None),
    ((AGREES, LOST, AGREES), f"round 2: {LOST.mismatch}"),
    ((LOST, AGREES, LOST), f"round 1: {LOST.mismatch}; round 3: {LOST.mismatch}"),
])
def test_a_warning_names_each_marked_round(profiles, detail):
    cell = replace(measured("netty", 2), profiles=profiles)
    warning = profile_warning(cell, "Netty (profiled)")
    assert (warning and warning.detail) == detail
    if warning:
        assert (warning.kind, warning.cell, warning.cause, warning.advice) == (
            WarningKind.PROFILE, "Netty (profiled) t2 c100", PROFILE_CAUSE, PROFILE_ADVICE)
        assert warning.text == f"Netty (profiled) t2 c100: {detail}; {PROFILE_ADVICE}"


def test_one_run_cells_say_no_round():
    cell = replace(measured("netty", 2, rates=(100.0,)), profiles=(LOST,))
    assert profile_warning(cell, "Netty").detail == LOST.mismatch


def test_cells_sharing_the_cause_are_one_group():
    result = result_of(replace(measured("netty", 2), profiles=(LOST,) * 3),
                       replace(measured("armeria", 2), profiles=(AGREES, LOST, AGREES)),
                       replace(measured("undertow", 2), profiles=(AGREES,) * 3))
    (group,) = warning_groups(result)
    assert group.kind is WarningKind.PROFILE and len(group.warnings) == 2
    assert kinds_in_words((group,)) == "2 cells whose profiles do not add up to the CPU measured"


def test_the_profiled_sample_warns_of_armerias_lost_samples_only():
    (group,) = warning_groups(profile_sample_result())
    (warning,) = group.warnings
    assert warning.cell == "Armeria (16 workers) (profiled) t5 c500"
    assert warning.detail.startswith("round 2: 1300 samples x 5 ms = 6.50 s of CPU")
