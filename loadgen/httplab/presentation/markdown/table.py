"""A Markdown table from a header and rows of texts, each row on one line. Pure."""

from __future__ import annotations


def markdown_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    return [_row(header), _row(("---",) * len(header)), *(_row(row) for row in rows)]


def _row(values: tuple[str, ...]) -> str:
    return "| " + " | ".join(_cell_text(value) for value in values) + " |"


def _cell_text(value: str) -> str:
    """One table cell: a multi-line reason (such as log lines) folds into one line."""
    return " / ".join(line.strip() for line in value.splitlines() if line.strip()).replace("|", "\\|")
