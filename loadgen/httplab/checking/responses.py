"""What a right answer is, for the conformance check: the hello world, /json, a wait of N
ms and a bad ms refused. Pure: each function takes what was received (and how long it
took) and says what is wrong with it, empty when nothing is. Stdlib only, as the check
also runs in the wrk image (see conformance.py)."""

from __future__ import annotations

import email.utils

from httplab.checking.http_wire import Response

EXPECTED_BODY = b"Hello, World!"
HELLO_CONTENT_TYPES = ("text/plain", "text/plain;charset=utf-8")
JSON_BODY = b'{"message":"Hello, World!"}'
JSON_CONTENT_TYPE = "application/json"
# How much later than the N ms asked /delay and /blocking may answer at rest (no other
# load): a timer or a sleep that ends on time answers within a few ms here; 250 ms leaves
# room for a busy CI host and a first request that loads classes, and is still far below
# the 10 s a server would take to honour ms=10001 instead of refusing it. A bad ms must
# be refused (400) within the same slack.
WAIT_SLACK_MS = 250


def hello_problems(response: Response, server_header: str) -> list[str]:
    """What is wrong with a hello-world response; empty when it is right."""
    content_type = (response.header("Content-Type") or "").lower().replace(" ", "")
    type_problem = ("" if content_type in HELLO_CONTENT_TYPES else
                    f"Content-Type {response.header('Content-Type')!r}, expected text/plain")
    return _answer_problems(response, server_header, EXPECTED_BODY, type_problem)


def json_problems(response: Response, server_header: str) -> list[str]:
    """What is wrong with an answer to GET /json: the body and Content-Type exactly."""
    content_type = response.header("Content-Type")
    type_problem = ("" if content_type == JSON_CONTENT_TYPE else
                    f"Content-Type {content_type!r}, expected exactly {JSON_CONTENT_TYPE!r}")
    return _answer_problems(response, server_header, JSON_BODY, type_problem)


def _answer_problems(response: Response, server_header: str, body: bytes,
                     type_problem: str) -> list[str]:
    """A 200 with this body and its length, a right Content-Type (type_problem empty), the
    server's Server header and a valid Date."""
    problems = [] if response.status == 200 else [f"status {response.status}, expected 200"]
    if response.body != body:
        problems.append(f"body {response.body[:40]!r}, expected {body!r}")
    problems.append(type_problem)
    if response.header("Content-Length") != str(len(body)):
        problems.append(f"Content-Length {response.header('Content-Length')!r}, "
                        f"expected {len(body)}")
    if server_header.lower() not in (response.header("Server") or "").lower():
        problems.append(f"Server {response.header('Server')!r}, expected {server_header!r}")
    if parse_http_date(response.header("Date")) is None:
        problems.append(f"Date {response.header('Date')!r} is not a valid HTTP date")
    return [problem for problem in problems if problem]


def parse_http_date(value: str | None) -> float | None:
    """Seconds since the epoch of an IMF-fixdate, or None when it is not one."""
    if not value or not value.endswith(" GMT"):
        return None
    try:
        return email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None


def status_problem(status: int, request: str, expected: int) -> str:
    """Empty when the status is the expected one, else what was wrong."""
    return "" if status == expected else f"status {status} for {request}, expected {expected}"


def not_allowed_problem(response: Response, request: str) -> str:
    """A method the path does not take: 405, with the Allow header that names the ones it
    does (RFC 9110, 15.5.6)."""
    if response.status != 405:
        return status_problem(response.status, request, 405)
    return "" if response.header("Allow") else f"405 for {request} without an Allow header"


def wait_problem(elapsed_ms: list[float], delay_ms: int, request: str) -> str:
    """Answers to a request that waits delay_ms: none sooner than that, and the soonest no
    later than WAIT_SLACK_MS after it (the first may load classes)."""
    soonest = min(elapsed_ms)
    if soonest < delay_ms:
        return f"{request} answered after {soonest:.1f} ms, sooner than the {delay_ms} ms asked"
    if soonest > delay_ms + WAIT_SLACK_MS:
        return (f"{request} answered after {soonest:.1f} ms at the soonest, later than "
                f"{delay_ms} + {WAIT_SLACK_MS} ms")
    return ""


def refusal_problem(status: int, elapsed_ms: float, request: str) -> str:
    """A bad ms: 400 at once, well before any wait could end."""
    if status != 400:
        return status_problem(status, request, 400)
    if elapsed_ms > WAIT_SLACK_MS:
        return f"400 for {request} after {elapsed_ms:.0f} ms, expected it within {WAIT_SLACK_MS} ms"
    return ""
