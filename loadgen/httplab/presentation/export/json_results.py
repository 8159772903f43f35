"""results.json: the whole BenchResult, with its format version, and for each cell the
summary of its Requests/sec (with, on delay and blocking, the bound waiting sets, and on db
and queries the database's figures) and its fairness figures, for each step of a latency
run its
costs per request and its CPU verdict (derived for readers of the JSON; not read back). JSON has no infinity: an infinite fairness spread is the string "inf"."""

from __future__ import annotations

import json
import math
from typing import Any

from httplab.model import BenchResult, Cell
from httplab.results.database_figures import database_figures
from httplab.presentation.export.latency_json import with_step_figures
from httplab.results.serialize import result_to_dict
from httplab.results.bottleneck import cell_bottleneck
from httplab.results.fairness import cell_fairness
from httplab.results.littles_law import (WaitBound, cell_wait_bound, pool_threads_max,
                                         share_of_bound)
from httplab.results.stats import cell_summary
from httplab.run_layout import RESULTS_JSON

SUMMARY_KEY = "requests_per_sec_summary"
SUMMARY_AFTER = "reason"  # where the summary sits among a cell's keys
# derived by results/littles_law.py, after the summary, for delay and blocking cells only;
# not read back
BOUND_KEY = "littles_law_bound"
# derived by results/database_figures.py, after the summary, for db and queries cells only (the
# server's db_pool and db_driver are in its record); not read back
DATABASE_KEY = "database_summary"
BOTTLENECK_KEY = "limited_by"  # derived by results/bottleneck.py; not read back
FAIRNESS_KEY = "fairness_summary"  # derived by results/fairness.py; not read back


class JsonExporter:
    file_name = RESULTS_JSON

    def render(self, result: BenchResult) -> str:
        document = result_to_dict(result)
        document["cells"] = [_with_bottleneck(_with_fairness(_with_summary(data, cell, result),
                                                             cell), cell, result)
                             for data, cell in zip(document["cells"], result.cells)]
        if result.latency is not None:
            document["latency"] = with_step_figures(document["latency"], result)
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _with_summary(data: dict[str, Any], cell: Cell, result: BenchResult) -> dict[str, Any]:
    summary = cell_summary(cell)
    bound = cell_wait_bound(cell, result)
    with_summary: dict[str, Any] = {}
    for key, value in data.items():
        with_summary[key] = value
        if key == SUMMARY_AFTER:
            with_summary[SUMMARY_KEY] = None if summary is None else vars(summary).copy()
            if bound is not None:
                with_summary[BOUND_KEY] = _bound(bound, cell, result)
            if cell.workload.uses_database:
                with_summary[DATABASE_KEY] = _database(cell)
    return with_summary


def _database(cell: Cell) -> dict[str, Any] | None:
    """The figures results.csv names in its database columns (null where not measured)."""
    figures = database_figures(cell)
    return None if figures is None else {f"database_{name}": value
                                         for name, value in vars(figures).items()}


def _bound(bound: WaitBound, cell: Cell, result: BenchResult) -> dict[str, Any]:
    """The figures results.csv names in its bound columns."""
    blocking = bound.pool_threads is not None
    return {"bound_requests_per_sec": bound.rate, "set_by": bound.set_by,
            "share_of_bound": share_of_bound(cell, result),
            "connections_bound_requests_per_sec": bound.connections_rate,
            "pool_bound_requests_per_sec": bound.pool_rate,
            "blocking_pool": bound.pool_threads,
            "blocking_pool_threads_max": pool_threads_max(cell) if blocking else None}


def _with_bottleneck(data: dict[str, Any], cell: Cell, result: BenchResult) -> dict[str, Any]:
    verdict = cell_bottleneck(cell, result)
    return {**data, BOTTLENECK_KEY: {"limit": verdict.limit.value, "detail": verdict.detail}}


def _with_fairness(data: dict[str, Any], cell: Cell) -> dict[str, Any]:
    figures = cell_fairness(cell)
    if figures is None:
        return {**data, FAIRNESS_KEY: None}
    spread = "inf" if math.isinf(figures.spread) else figures.spread
    return {**data, FAIRNESS_KEY: {**vars(figures), "spread": spread}}
