"""results.json: written by its owner, results/results_json/ (the model and every figure
derived for its readers, with its format version)."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.results.results_json.write import results_json_text
from httplab.run_layout import RESULTS_JSON


class JsonExporter:
    file_name = RESULTS_JSON

    def render(self, result: BenchResult) -> str:
        return results_json_text(result)
