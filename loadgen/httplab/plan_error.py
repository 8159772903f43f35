"""The error a bad setting stops a run with: one line the user sees, before any load.
Raised wherever a setting is validated (workloads.py, running/plan.py and the plans and
engines it uses) and printed by cli.py; a leaf, so parsing the command line loads no
runner."""

from __future__ import annotations


class PlanError(ValueError):
    """Bad bench input; the message is the one line the user sees."""
