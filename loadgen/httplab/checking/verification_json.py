"""A Verification as JSON, for a conformance check run on another host: conformance_cli.py
--json prints verification_to_dict's object, the harness reads it back with
verification_from_dict. Pure; stdlib only, as the check runs in the wrk image."""

from __future__ import annotations

from typing import Any

from httplab.checking.conformance import CheckResult, Verification


def verification_to_dict(verification: Verification) -> dict[str, Any]:
    """The checks in order, a workload's with its key; "passed" (the common checks') is
    there for a reader, the checks decide."""
    return {"passed": verification.passed,
            "checks": [{"name": check.name, "passed": check.passed, "detail": check.detail,
                        **({"workload": check.workload} if check.workload else {})}
                       for check in verification.checks]}


def verification_from_dict(data: object) -> Verification:
    """The Verification verification_to_dict wrote; ValueError naming what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("checks"), list):
        raise ValueError("not a verification: expected an object with a list of checks")
    checks = tuple(_check_from_dict(index, check) for index, check in enumerate(data["checks"]))
    if not checks:
        raise ValueError("a verification without checks")
    verification = Verification(checks)
    if data.get("passed", verification.passed) != verification.passed:
        raise ValueError(f"says passed={data['passed']} but its checks say {verification.passed}")
    return verification


def _check_from_dict(index: int, check: object) -> CheckResult:
    if not isinstance(check, dict):
        raise ValueError(f"check {index + 1} is not an object")
    name, passed, detail = check.get("name"), check.get("passed"), check.get("detail", "")
    workload = check.get("workload")  # absent: a common check (and every check of old JSON)
    if not isinstance(name, str) or not isinstance(passed, bool) or not isinstance(detail, str):
        raise ValueError(f"check {index + 1} needs a text name, a true/false passed and a "
                         f"text detail: {check!r:.120}")
    if workload is not None and (not isinstance(workload, str) or not workload):
        raise ValueError(f"check {index + 1}: workload {workload!r} is not a workload's key")
    return CheckResult(name, passed, detail, workload)
