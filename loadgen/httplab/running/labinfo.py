"""Which version of the lab produced a run: its git commit, and whether the tree had changes."""

from __future__ import annotations

from pathlib import Path

from httplab.running.tools import command_output

# A bench writes these itself; their changes do not make the lab's own code dirty.
OUTPUT_DIRS = ("results", "image")


def lab_commit(repo: Path) -> str | None:
    """'1a2b3c4', or '1a2b3c4+dirty' when tracked code differs from it; None outside git."""
    commit = command_output(["git", "-C", str(repo), "rev-parse", "--short=12", "HEAD"])
    if not commit or " " in commit:
        return None
    excluded = [f":!{name}" for name in OUTPUT_DIRS]
    changes = command_output(["git", "-C", str(repo), "status", "--porcelain", "--", ".", *excluded])
    return f"{commit}+dirty" if changes else commit
