"""Read the summary h2load (nghttp2 1.52) prints at the end of a run. Takes text; does no I/O.

Only the "finished in", "requests:" and client "req/s" lines are read; the progress lines
before them and the other statistics are ignored. A run that h2load did not finish (it was
killed, or stopped at its arguments) has no summary: that is an error, as is a damaged one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_FINISHED = re.compile(r"finished in (\d+(?:\.\d+)?)(us|ms|s), (\d+(?:\.\d+)?) req/s, .*")
_REQUESTS = re.compile(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, "
                       r"(\d+) failed, (\d+) errored, (\d+) timeout")
_NUMBER = r"(-?\d+(?:\.\d+)?|-?nan)"
_CLIENT_RATES = re.compile(rf"req/s\s*:\s*{_NUMBER}\s+{_NUMBER}\s+{_NUMBER}\s+{_NUMBER}\s+"
                           rf"{_NUMBER}%", re.IGNORECASE)
SECONDS_PER_UNIT = {"us": 1e-6, "ms": 1e-3, "s": 1.0}  # h2load's util::format_duration


@dataclass(frozen=True)
class H2loadReport:
    """h2load's own figures of one run. The client rates are its per-client req/s row;
    unknown (None) where it printed nan or left the row out."""

    duration_s: float
    requests_per_sec: float
    total: int
    succeeded: int  # answered with 2xx or 3xx
    failed: int  # every other request that finished, errored and timed-out ones included
    errored: int
    timeout: int
    client_rps_min: float | None = None
    client_rps_max: float | None = None
    client_rps_mean: float | None = None
    client_rps_sd: float | None = None


def parse_h2load(text: str, source: str) -> H2loadReport:
    """The one summary in `text`; `source` names it in error messages."""
    finished = _only_line(text, "finished in", _FINISHED, source)
    requests = _only_line(text, "requests:", _REQUESTS, source)
    if finished is None or requests is None:
        missing = "finished in" if finished is None else "requests:"
        raise ValueError(f"{source}: no h2load summary: no {missing!r} line "
                         "(h2load did not finish its run)")
    rates = _only_line(text, "req/s", _CLIENT_RATES, source)
    client = [_number(rates.group(i)) for i in range(1, 5)] if rates else [None] * 4
    total, _, _, succeeded, failed, errored, timeout = (int(n) for n in requests.groups())
    number, unit, per_sec = finished.groups()
    return H2loadReport(float(number) * SECONDS_PER_UNIT[unit], float(per_sec), total,
                        succeeded, failed, errored, timeout, *client)


def _only_line(text: str, prefix: str, pattern: re.Pattern[str],
               source: str) -> re.Match[str] | None:
    """The match of the one line starting with `prefix`; None without one."""
    found = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)
             if line.strip().startswith(prefix)]
    if len(found) > 1:
        raise ValueError(f"{source}:{found[1][0]}: a second {prefix!r} line")
    if not found:
        return None
    number, line = found[0]
    match = pattern.fullmatch(line)
    if match is None:
        raise ValueError(f"{source}:{number}: not an h2load {prefix!r} line: {line!r}")
    return match


def _number(text: str) -> float | None:
    value = float(text)
    return None if math.isnan(value) else value
