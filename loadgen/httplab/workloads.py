"""The workloads a bench can ask of the servers (WORKLOAD, DELAY_MS, QUERIES): what each
one requests, how names say it, and which servers answer it. Pure."""

from __future__ import annotations

import re

from httplab.plan_error import PlanError
from httplab.model import DATABASE_WORKLOADS, PLAINTEXT, WAITING_WORKLOADS, Workload

WORKLOAD_NAMES = ("plaintext", "json") + WAITING_WORKLOADS + DATABASE_WORKLOADS
# The ms every server accepts on /delay and /blocking (servers/common WaitMillis).
MIN_DELAY_MS, MAX_DELAY_MS = 1, 10_000
# The rows /queries answers: n clamped to this range (servers/common QueryCount).
MIN_QUERIES, MAX_QUERIES = 1, 500
JSON_PATH = "/json"
WAIT_PARAMETER = "ms"
QUERIES_PARAMETER = "n"
_KEY = re.compile(r"(?P<name>delay|blocking)-(?P<ms>\d+)ms")
_QUERIES_KEY = re.compile(r"queries-(?P<n>\d+)")


def parse_workloads(text: str, delay_ms_text: str, queries_text: str = "20") -> tuple[Workload, ...]:
    """'plaintext,blocking,queries' with DELAY_MS '10' and QUERIES '20' -> (plaintext,
    blocking 10 ms, queries n=20), each once, in the order given."""
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in names if name not in WORKLOAD_NAMES]
    if unknown or not names:
        raise PlanError(f"WORKLOAD takes {', '.join(WORKLOAD_NAMES)} or several, "
                        f"comma-separated; got {text!r}")
    delay_ms, queries = parse_delay_ms(delay_ms_text), parse_queries(queries_text)
    return tuple(Workload(name, delay_ms if name in WAITING_WORKLOADS else None,
                          queries if name == "queries" else None)
                 for name in names)


def parse_queries(text: str) -> int:
    return _whole_number("QUERIES", text, MIN_QUERIES, MAX_QUERIES,
                         "rows per request", " (what /queries answers)")


def parse_delay_ms(text: str) -> int:
    return _whole_number("DELAY_MS", text, MIN_DELAY_MS, MAX_DELAY_MS, "milliseconds")


def _whole_number(variable: str, text: str, low: int, high: int, unit: str,
                  note: str = "") -> int:
    """text as a whole number of `unit` from low to high, or the PlanError naming them."""
    text = text.strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise PlanError(f"{variable} must be a whole number of {unit} from {low} to {high}"
                        f"{note}; got {text!r}")
    return int(text)


def request_path(workload: Workload, hello_path: str) -> str:
    """What the load tool requests: the manifest's hello path for plaintext, /json,
    /delay?ms=N, /blocking?ms=N, /db or /queries?n=N."""
    if workload.is_plaintext:
        return hello_path
    if workload.waits:
        return f"/{workload.name}?{WAIT_PARAMETER}={workload.delay_ms}"
    if workload.queries is not None:
        return f"/{workload.name}?{QUERIES_PARAMETER}={workload.queries}"
    return f"/{workload.name}"


def answers(workload: Workload, is_reference: bool) -> bool:
    """The reference (nginx) serves plaintext and json only: it has no handler that waits
    and no database, so its delay, blocking, db and queries cells are not applicable, not
    failures."""
    return not (is_reference and (workload.waits or workload.uses_database))


def workload_of_key(key: str | None) -> Workload | None:
    """'blocking-10ms' -> blocking 10 ms, 'queries-20' -> queries n=20; None (no key in the
    name) -> plaintext; None for a key that is no workload."""
    if key is None:
        return PLAINTEXT
    if key in WORKLOAD_NAMES and key not in WAITING_WORKLOADS and key != "queries":
        return Workload(key)
    match, queries = _KEY.fullmatch(key), _QUERIES_KEY.fullmatch(key)
    if queries:
        return Workload("queries", queries=int(queries["n"]))
    return Workload(match["name"], int(match["ms"])) if match else None
