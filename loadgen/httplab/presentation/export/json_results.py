"""results.json: the whole BenchResult, with its format version, and for each cell the
summary of its Requests/sec (derived for readers of the JSON; not read back)."""

from __future__ import annotations

import json
from typing import Any

from httplab.model import BenchResult, Cell
from httplab.results.serialize import result_to_dict
from httplab.results.bottleneck import cell_bottleneck
from httplab.results.stats import cell_summary

SUMMARY_KEY = "requests_per_sec_summary"
SUMMARY_AFTER = "reason"  # where the summary sits among a cell's keys
BOTTLENECK_KEY = "limited_by"  # derived by results/bottleneck.py; not read back


class JsonExporter:
    file_name = "results.json"

    def render(self, result: BenchResult) -> str:
        document = result_to_dict(result)
        document["cells"] = [_with_bottleneck(_with_summary(data, cell), cell, result)
                             for data, cell in zip(document["cells"], result.cells)]
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _with_summary(data: dict[str, Any], cell: Cell) -> dict[str, Any]:
    summary = cell_summary(cell)
    with_summary: dict[str, Any] = {}
    for key, value in data.items():
        with_summary[key] = value
        if key == SUMMARY_AFTER:
            with_summary[SUMMARY_KEY] = None if summary is None else vars(summary).copy()
    return with_summary


def _with_bottleneck(data: dict[str, Any], cell: Cell, result: BenchResult) -> dict[str, Any]:
    verdict = cell_bottleneck(cell, result)
    return {**data, BOTTLENECK_KEY: {"limit": verdict.limit.value, "detail": verdict.detail}}
