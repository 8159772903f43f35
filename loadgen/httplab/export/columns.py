"""The results table's columns, shared by the Markdown and CSV exporters."""

from __future__ import annotations

from ..model import Cell, WrkRun


def socket_errors(run: WrkRun) -> str:
    errors = run.errors
    return f"{errors.connect}/{errors.read}/{errors.write}/{errors.timeout}"


def cell_status(cell: Cell) -> str:
    return cell.status.value if cell.reason is None else f"{cell.status.value}: {cell.reason}"
