"""The workloads a bench can ask of the servers (WORKLOAD, DELAY_MS): what each one
requests, how names say it, and which servers answer it. Pure."""

from __future__ import annotations

import re

from httplab.bench_settings import PlanError
from httplab.model import PLAINTEXT, WAITING_WORKLOADS, Workload

WORKLOAD_NAMES = ("plaintext", "json") + WAITING_WORKLOADS
# The ms every server accepts on /delay and /blocking (servers/common WaitMillis).
MIN_DELAY_MS, MAX_DELAY_MS = 1, 10_000
JSON_PATH = "/json"
WAIT_PARAMETER = "ms"
_KEY = re.compile(r"(?P<name>delay|blocking)-(?P<ms>\d+)ms")


def parse_workloads(text: str, delay_ms_text: str) -> tuple[Workload, ...]:
    """'plaintext,blocking' with DELAY_MS '10' -> (plaintext, blocking 10 ms), each once,
    in the order given."""
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in names if name not in WORKLOAD_NAMES]
    if unknown or not names:
        raise PlanError(f"WORKLOAD takes {', '.join(WORKLOAD_NAMES)} or several, "
                        f"comma-separated; got {text!r}")
    delay_ms = parse_delay_ms(delay_ms_text)
    return tuple(Workload(name, delay_ms if name in WAITING_WORKLOADS else None)
                 for name in names)


def parse_delay_ms(text: str) -> int:
    text = text.strip()
    if not text.isdigit() or not MIN_DELAY_MS <= int(text) <= MAX_DELAY_MS:
        raise PlanError(f"DELAY_MS must be a whole number of milliseconds from {MIN_DELAY_MS} "
                        f"to {MAX_DELAY_MS}; got {text!r}")
    return int(text)


def request_path(workload: Workload, hello_path: str) -> str:
    """What the load tool requests: the manifest's hello path for plaintext, /json,
    /delay?ms=N or /blocking?ms=N."""
    if workload.is_plaintext:
        return hello_path
    if workload.waits:
        return f"/{workload.name}?{WAIT_PARAMETER}={workload.delay_ms}"
    return JSON_PATH


def answers(workload: Workload, is_reference: bool) -> bool:
    """The reference (nginx) serves plaintext and json only: it has no handler that waits,
    so its delay and blocking cells are not applicable, not failures."""
    return not (is_reference and workload.waits)


def workload_of_key(key: str | None) -> Workload | None:
    """'blocking-10ms' -> blocking 10 ms; None (no key in the name) -> plaintext; None
    for a key that is no workload."""
    if key is None:
        return PLAINTEXT
    if key in WORKLOAD_NAMES and key not in WAITING_WORKLOADS:
        return Workload(key)
    match = _KEY.fullmatch(key)
    return Workload(match["name"], int(match["ms"])) if match else None
