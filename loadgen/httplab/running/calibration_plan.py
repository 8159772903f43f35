"""make calibrate's plan: a bench's, every server measured twice in each round as two
identical variants (REPLICA=1,2, an A/A), and the one rule of its own: enough rounds for an
interval. Pure."""

from __future__ import annotations

from collections.abc import Mapping

from httplab.axes import REPLICA
from httplab.manifest import ServerManifest
from httplab.plan_error import PlanError
from httplab.results.paired_ratio import MIN_ROUNDS
from httplab.running.plan import BenchPlan, make_plan


def make_calibration_plan(settings: Mapping[str, str], known: tuple[ServerManifest, ...],
                          available_cpus: frozenset[int] = frozenset()) -> BenchPlan:
    """The bench plan of the settings (as make_plan takes them) with every replica; PlanError
    at a setting that cannot work, REPEAT below MIN_ROUNDS among them."""
    plan = make_plan({**settings, REPLICA.setting.lower(): ",".join(REPLICA.values)}, known,
                     available_cpus)
    if plan.repeat < MIN_ROUNDS:
        raise PlanError(f"make calibrate needs REPEAT={MIN_ROUNDS} or more: the host's noise "
                        f"is the spread of the rounds' A/A ratios, and an interval needs "
                        f"{MIN_ROUNDS}; got REPEAT={plan.repeat}")
    return plan
