"""The exporters: each renders a BenchResult to the text of one file of the run
(results.json, results.md, results.csv), listed once here for publish and the golden files.
No I/O here."""

from __future__ import annotations

from typing import Protocol

from httplab.model import BenchResult
from httplab.presentation.csv.results import CsvExporter
from httplab.presentation.json.results import JsonExporter
from httplab.presentation.markdown.results import MarkdownExporter


class Exporter(Protocol):
    file_name: str

    def render(self, result: BenchResult) -> str:
        ...


def all_exporters() -> tuple[Exporter, ...]:
    return (JsonExporter(), MarkdownExporter(), CsvExporter())
