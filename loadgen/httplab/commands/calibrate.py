"""`httplab calibrate`: the host's own noise before a long run. A bench (BenchSteps) whose
plan measures each server twice in every round as two identical variants (an A/A); its
results show the noise (results/calibration.py). Its charts go in its page only."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from httplab.commands.bench import BenchSteps
from httplab.commands.common import interrupt_on_sigterm
from httplab.commands.run_lifecycle import Destination, make_backend, run_lifecycle
from httplab.manifest import discover
from httplab.paths import results_root, servers_dir
from httplab.running.backends.base import Backend
from httplab.running.calibration_plan import make_calibration_plan
from httplab.running.hostinfo import usable_cpu_set
from httplab.running.plan import BenchPlan


def run_calibrate(settings: Mapping[str, str], repo: Path, results_dir: Path | None) -> int:
    """The calibration the settings ask for; PlanError on a bad setting, before anything."""
    plan = make_calibration_plan(settings, discover(servers_dir(repo)),
                                 frozenset(usable_cpu_set()))
    interrupt_on_sigterm()
    return calibrate(plan, make_backend(plan, repo, settings["base-images"]),
                     results_dir or results_root(repo), repo)


def calibrate(plan: BenchPlan, backend: Backend, results_root: Path, repo: Path) -> int:
    """Runs a calibration plan (make_calibration_plan's) on a backend; its exit code."""
    return run_lifecycle(BenchSteps(plan), backend, Destination(results_root, None, repo))
