"""Every warning of a result, and the same warnings grouped by kind and cause, so that a
cause many cells share is said once. Pure.

Each warning carries its kind, cause and cell (results.json keeps them since format 11; an
older file's are recovered from its sentences as it is read). One without a cause (an
older run's that this lab no longer makes, of kind OTHER) stays a group of its own."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import BenchResult, CellWarning, WarningKind
from httplab.results.bottleneck import bottleneck_warnings
from httplab.results.closed_loop_check import littles_law_warnings
from httplab.results.profile_warnings import profile_warnings
from httplab.results.stability import DEFAULT_CV_THRESHOLD, cell_name, stability_warnings

# Each kind as the cells it names: one, then several.
KIND_NOUNS = {
    WarningKind.NOISY: ("noisy cell (CV above threshold)", "noisy cells (CV above threshold)"),
    WarningKind.SKEWED: ("cell whose load generators started apart",
                         "cells whose load generators started apart"),
    WarningKind.LOADGEN: ("cell limited by the load generator",
                          "cells limited by the load generator"),
    WarningKind.SHARED_CPUS: ("cell limited by the shared CPUs",
                              "cells limited by the shared CPUs"),
    WarningKind.DATABASE: ("cell limited by the database's CPU",
                           "cells limited by the database's CPU"),
    WarningKind.PROFILE: ("cell whose profile does not add up to the CPU measured",
                          "cells whose profiles do not add up to the CPU measured"),
    WarningKind.LITTLE: ("cell whose rate, connections and mean latency disagree (Little's law)",
                         "cells whose rate, connections and mean latency disagree (Little's "
                         "law)"),
    WarningKind.OTHER: ("other warning", "other warnings"),
}


@dataclass(frozen=True)
class WarningGroup:
    """Warnings of one kind that share their cause and advice: one cell's each."""

    warnings: tuple[CellWarning, ...]
    every_measured_cell: bool = False  # a warning for each cell that has runs

    @property
    def kind(self) -> WarningKind:
        return self.warnings[0].kind

    @property
    def cause(self) -> str:
        return self.warnings[0].cause

    @property
    def advice(self) -> str:
        return self.warnings[0].advice


def cell_warnings(result: BenchResult) -> tuple[CellWarning, ...]:
    """Every warning the cells of this result call for, in the order results.json keeps."""
    threshold = result.settings.cv_threshold if result.settings else DEFAULT_CV_THRESHOLD
    return (stability_warnings(result, threshold) + bottleneck_warnings(result)
            + profile_warnings(result) + littles_law_warnings(result))


def warning_groups(result: BenchResult) -> tuple[WarningGroup, ...]:
    """result.warnings grouped by kind, cause and advice: the largest group first, then in
    the order of each group's first warning."""
    groups: dict[tuple, list[CellWarning]] = {}
    for index, warning in enumerate(result.warnings):
        groups.setdefault(_group_key(warning, index), []).append(warning)
    ordered = sorted(groups.values(), key=lambda members: -len(members))
    measured = {cell_name(cell, result.label(cell.server)) for cell in result.cells if cell.runs}
    return tuple(WarningGroup(tuple(members), {warning.cell for warning in members} == measured)
                 for members in ordered)


def _group_key(warning: CellWarning, index: int) -> tuple:
    """A warning without a known cause is a group of its own."""
    if not warning.cause:
        return warning.kind, index
    return warning.kind, warning.cause, warning.advice


def count_of_cells(kind: WarningKind, count: int) -> str:
    """"1 noisy cell (CV above threshold)", "12 cells limited by the shared CPUs"."""
    one, several = KIND_NOUNS[kind]
    return f"{count} {one if count == 1 else several}"


def kinds_in_words(groups: tuple[WarningGroup, ...]) -> str:
    """How many cells have each kind of warning, in the order of the groups."""
    counts: dict[WarningKind, int] = {}
    for group in groups:
        counts[group.kind] = counts.get(group.kind, 0) + len(group.warnings)
    return ", ".join(count_of_cells(kind, count) for kind, count in counts.items())
