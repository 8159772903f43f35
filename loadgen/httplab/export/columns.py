"""Cell texts shared by the Markdown and CSV exporters."""

from __future__ import annotations

from ..model import Cell, SocketErrors


def socket_errors(errors: SocketErrors) -> str:
    return f"{errors.connect}/{errors.read}/{errors.write}/{errors.timeout}"


def cell_status(cell: Cell) -> str:
    return cell.status.value if cell.reason is None else f"{cell.status.value}: {cell.reason}"
