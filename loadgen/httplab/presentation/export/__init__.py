"""Exporters: each renders a BenchResult to the text of one file. No I/O here."""

from __future__ import annotations

from typing import Protocol

from httplab.model import BenchResult


class Exporter(Protocol):
    file_name: str

    def render(self, result: BenchResult) -> str:
        ...


def all_exporters() -> tuple[Exporter, ...]:
    from httplab.presentation.export.csv_table import CsvExporter
    from httplab.presentation.export.json_results import JsonExporter
    from httplab.presentation.export.markdown import MarkdownExporter

    return (JsonExporter(), MarkdownExporter(), CsvExporter())
