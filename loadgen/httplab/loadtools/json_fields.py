"""The typed fields of a JSON object a load tool writes, read one at a time: each error
names the file and the field. Shared by the JSON readers of loadtools/. Pure."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any


class ToolJsonError(ValueError):
    """A load tool's JSON that cannot be read; names the source."""

    def __init__(self, source: str, reason: str) -> None:
        self.source = source
        self.reason = reason
        super().__init__(f"{source}: {reason}")


@dataclass(frozen=True)
class JsonFields:
    """Field readers that raise `error`; `writer` is named when the text holds NaN or
    Infinity, which JSON has no words for."""

    error: type[ToolJsonError]
    writer: str

    def load_object(self, text: str, source: str) -> dict[str, Any]:
        try:
            document = json.loads(text, parse_constant=self._reject_constant)
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            raise self.error(source, f"not valid JSON: {error}") from None
        if not isinstance(document, dict):
            raise self.error(source, f"expected a JSON object, got {type(document).__name__}")
        return document

    def _reject_constant(self, name: str) -> None:
        raise ValueError(f"{name} is not JSON ({self.writer} writes null for undefined figures)")

    def object(self, document: dict[str, Any], key: str, source: str) -> dict[str, Any]:
        value = self.required(document, key, source)
        if not isinstance(value, dict):
            raise self.error(source, f"'{key}' must be an object, got {value!r}")
        return value

    def required(self, document: dict[str, Any], key: str, source: str, prefix: str = "") -> Any:
        if key not in document:
            raise self.error(source, f"missing key '{prefix}{key}'")
        return document[key]

    def number(self, document: dict[str, Any], key: str, source: str, prefix: str = "") -> float:
        value = self.required(document, key, source, prefix)
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or value < 0):
            raise self.error(source, f"'{prefix}{key}' must be a number >= 0, got {value!r}")
        return float(value)

    def optional_number(self, document: dict[str, Any], key: str, source: str,
                        prefix: str = "") -> float | None:
        """A number the key must hold, or null."""
        if self.required(document, key, source, prefix) is None:
            return None
        return self.number(document, key, source, prefix)

    def count(self, document: dict[str, Any], key: str, source: str, prefix: str = "") -> int:
        value = self.number(document, key, source, prefix)
        if not value.is_integer():
            raise self.error(source, f"'{prefix}{key}' must be a whole number, got {document[key]!r}")
        return int(value)
