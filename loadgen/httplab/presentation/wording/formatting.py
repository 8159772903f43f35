"""Human-readable numbers for tables and charts, in wrk's own style, and plain-text columns
(the terminal's tables). Pure functions."""

from __future__ import annotations

from collections.abc import Sequence

_DURATION_UNITS = ((3_600_000_000, "h"), (60_000_000, "m"), (1_000_000, "s"), (1_000, "ms"))
_BYTE_UNITS = ((1024**4, "TB"), (1024**3, "GB"), (1024**2, "MB"), (1024, "KB"))
MISSING = "—"


def _scaled(value: float | None, units: tuple[tuple[int, str], ...], base_unit: str) -> str:
    """The value in the largest unit it reaches, with two decimals, as wrk prints."""
    if value is None:
        return MISSING
    for size, unit in units:
        if value >= size:
            return f"{value / size:.2f}{unit}"
    return f"{value:.2f}{base_unit}"


def format_duration_us(value: float | None) -> str:
    """7680.0 -> '7.68ms', like wrk prints latency."""
    return _scaled(value, _DURATION_UNITS, "us")


def format_bytes(value: float | None) -> str:
    """6930000.0 -> '6.61MB', binary multiples like wrk."""
    return _scaled(value, _BYTE_UNITS, "B")


def format_switches(per_request: float | None, involuntary: float | None) -> str:
    """Context switches per request, and of them the involuntary where counted:
    '2.10 (0.31 involuntary)'."""
    if per_request is None:
        return MISSING
    return f"{per_request:.2f}" + ("" if involuntary is None else f" ({involuntary:.2f} involuntary)")


def format_rate(value: float | None) -> str:
    """Requests per second with two decimals, as wrk prints them."""
    return MISSING if value is None else f"{value:.2f}"


def aligned_rows(rows: Sequence[Sequence[str]]) -> list[str]:
    """Plain-text columns, each as wide as its widest text, two spaces apart."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return ["  ".join(text.ljust(width) for text, width in zip(row, widths)).rstrip()
            for row in rows]
