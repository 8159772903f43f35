"""Which rows of a run's page are marked failed or warned, the one rule for the summary and
for the tables of results.md. Pure.

A cell is failed when its status is; warned when a warning of the run is about it (its
cell, named as results/stability.py's cell_name names it, an older run's too). A table row
is failed when its Status or Verdict column says so (a failed cell, a failed fixed-rate
step), else it takes the mark of the cell it shows, found by its Framework, Threads and
Connections columns and its workload (its Workload column, or the heading it stands
under)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from httplab.model import BenchResult, Cell, CellStatus, CellWarning, StepVerdict
from httplab.presentation.wording.workloads import workload_heading
from httplab.presentation.views.points import run_workloads
from httplab.results.stability import cell_name
from httplab.results.warning_groups import KIND_NOUNS

FAILED, WARNED = CellStatus.FAILED.value, "warned"
# How results.md's Status column begins for a failed cell, its Verdict for a failed step.
FAILED_WORDS = {"Status": CellStatus.FAILED.value, "Verdict": StepVerdict.FAILED.value}
HEADING_MARK = "### "  # how results.md sets a workload's heading (workload_heading)


@dataclass(frozen=True)
class RunMarks:
    """The marks of one run's cells, and of the rows of its Markdown tables."""

    result: BenchResult

    @cached_property
    def warnings_by_cell(self) -> dict[str, tuple[CellWarning, ...]]:
        """Each warned cell's name and its warnings, in the order results.json keeps them."""
        found: dict[str, list[CellWarning]] = {}
        for warning in self.result.warnings:
            found.setdefault(warning.cell, []).append(warning)
        return {name: tuple(warnings) for name, warnings in found.items()}

    def cell_warnings(self, cell: Cell) -> tuple[CellWarning, ...]:
        return self.warnings_by_cell.get(cell_name(cell, self.result.label(cell.server)), ())

    def of_cell(self, cell: Cell) -> str | None:
        if cell.status is CellStatus.FAILED:
            return FAILED
        return WARNED if self.cell_warnings(cell) else None

    def warned_words(self, cell: Cell) -> str:
        """"warned: noisy cell (CV above threshold)", each kind once."""
        kinds = dict.fromkeys(warning.kind for warning in self.cell_warnings(cell))
        return f"{WARNED}: " + "; ".join(KIND_NOUNS[kind][0] for kind in kinds)

    @cached_property
    def _heading_workloads(self) -> dict[str, str]:
        """Each workload heading's text, as the Markdown renders it, to its workload's label."""
        return {workload_heading(self.result, workload).removeprefix(HEADING_MARK): workload.label
                for workload in run_workloads(self.result)}

    def of_row(self, header: tuple[str, ...], row: tuple[str, ...],
               heading: str | None) -> str | None:
        """A table row's mark; heading: the text of the heading the table stands under."""
        columns = dict(zip(header, row))
        if any(columns.get(name, "").startswith(word) for name, word in FAILED_WORDS.items()):
            return FAILED
        workload = self._heading_workloads.get(heading) if heading else None
        cell = self._row_cell(columns, columns.get("Workload", workload))
        return None if cell is None else self.of_cell(cell)

    def _row_cell(self, columns: dict[str, str], workload: str | None) -> Cell | None:
        """The one cell the row shows: by its framework, threads and connections, and by
        its workload when that leaves any; None when none or several match."""
        shown = (columns.get("Framework"), columns.get("Threads"), columns.get("Connections"))
        matching = [cell for cell in self.result.cells
                    if (self.result.label(cell.server), str(cell.threads),
                        str(cell.connections)) == shown]
        of_workload = [cell for cell in matching if cell.workload.label == workload]
        candidates = of_workload or matching
        return candidates[0] if len(candidates) == 1 else None
