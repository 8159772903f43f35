"""make calibrate's plan: a bench's, every server measured twice in each round as two
identical variants (REPLICA=1,2, an A/A), and the rules of its own: a fixed number of
rounds, enough for an interval. Pure."""

from __future__ import annotations

from collections.abc import Mapping

from httplab.axes import REPLICA
from httplab.bench_settings import AUTO_REPEAT
from httplab.manifest import ServerManifest
from httplab.plan_error import PlanError
from httplab.results.paired_ratio import MIN_ROUNDS
from httplab.running.plan import BenchPlan, make_plan


def make_calibration_plan(settings: Mapping[str, str], known: tuple[ServerManifest, ...],
                          available_cpus: frozenset[int] = frozenset()) -> BenchPlan:
    """The bench plan of the settings (as make_plan takes them) with every replica; PlanError
    at a setting that cannot work, REPEAT=auto or below MIN_ROUNDS among them."""
    plan = make_plan({**settings, REPLICA.setting.lower(): ",".join(REPLICA.values)}, known,
                     available_cpus)
    if plan.auto_repeat is not None:
        # Stopping once the A/A interval is narrow would keep the runs whose spread
        # happened to be small: the very figure a calibration measures.
        raise PlanError(f"make calibrate takes a fixed REPEAT ({MIN_ROUNDS} or more), not "
                        f"REPEAT={AUTO_REPEAT}: stopping once its interval is narrow would "
                        "understate the spread it measures")
    if plan.repeat < MIN_ROUNDS:
        raise PlanError(f"make calibrate needs REPEAT={MIN_ROUNDS} or more: the host's noise "
                        f"is the spread of the rounds' A/A ratios, and an interval needs "
                        f"{MIN_ROUNDS}; got REPEAT={plan.repeat}")
    return plan
