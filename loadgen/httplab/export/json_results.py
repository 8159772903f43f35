"""results.json: the whole BenchResult, with its format version."""

from __future__ import annotations

import json

from ..model import BenchResult
from ..serialize import result_to_dict


class JsonExporter:
    file_name = "results.json"

    def render(self, result: BenchResult) -> str:
        return json.dumps(result_to_dict(result), indent=2, ensure_ascii=False) + "\n"
