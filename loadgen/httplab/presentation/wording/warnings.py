"""A warning as results.md and the run page say it: one alone as it is, several with one
cause as that cause, said once. Pure."""

from __future__ import annotations

from httplab.results.warning_groups import WarningGroup, count_of_cells


def warning_item(group: WarningGroup) -> str:
    """One warning as it is; several with one cause as that cause, said once, after the
    cells it concerns (with the figure of each, where they differ)."""
    if len(group.warnings) == 1:
        return group.warnings[0].text
    details = any(warning.detail for warning in group.warnings)
    cells = ("every measured cell" if group.every_measured_cell and not details else
             ", ".join(warning.cell + (f" ({warning.detail})" if warning.detail else "")
                       for warning in group.warnings))
    return (f"{count_of_cells(group.kind, len(group.warnings))}: {cells}. {group.cause}; "
            f"{group.advice}")
