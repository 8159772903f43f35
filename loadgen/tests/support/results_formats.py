"""results.json as an older format wrote it, for the tests that read older files: the
fields a test removes are its own; this says what every format before 11 lacked."""

from __future__ import annotations

from typing import Any


def as_format(data: dict[str, Any], version: int) -> dict[str, Any]:
    """data (as write.py writes it) labelled `version`; before 11 each warning was its
    sentence only."""
    data = {**data, "format_version": version}
    if version < 11:
        data["warnings"] = [warning["text"] for warning in data["warnings"]]
    return data
