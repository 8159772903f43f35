"""A tiny HTTP/1.1 server on 127.0.0.1 whose answers a test chooses, to show the
conformance check fails when a server is wrong."""

from __future__ import annotations

import socketserver
import threading
import time
from dataclasses import dataclass
from email.utils import formatdate
from http import HTTPStatus
from typing import BinaryIO, Callable

HELLO_PATHS = ("/", "/plaintext")


@dataclass(frozen=True)
class FakeRequest:
    method: str
    path: str
    version: str  # "HTTP/1.1" or "HTTP/1.0"
    headers: tuple[tuple[str, str], ...] = ()  # names in lower case

    def header(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key == name.lower()), None)

    @property
    def keep_alive(self) -> bool:
        """HTTP/1.1 keeps the connection unless asked to close; HTTP/1.0 only when asked."""
        connection = (self.header("Connection") or "").lower()
        return connection == "keep-alive" if self.version == "HTTP/1.0" else connection != "close"


Answer = Callable[[FakeRequest], bytes]  # request -> full response bytes (b"": no answer)


def hello_answer(request: FakeRequest, body: bytes = b"Hello, World!", server: str = "Fake",
                 date: str | None = None, content_type: str = "text/plain",
                 head_status: int = 200, head_sends_body: bool = False,
                 other_method_status: int = 405) -> bytes:
    """A right answer by default; each argument makes it wrong in one way."""
    status = _status_for(request, head_status, other_method_status)
    return _response(request, status, body, content_type, server=server, date=date,
                     head_sends_body=head_sends_body)


def _response(request: FakeRequest, status: int, body: bytes, content_type: str,
              server: str = "Fake", date: str | None = None, head_sends_body: bool = False,
              allow: bool = True, extra: str = "") -> bytes:
    """The whole response: the body only with a 200 (404 and 400 say so in a few words),
    none after HEAD's head unless head_sends_body; a 405 names GET and HEAD in Allow; extra
    header lines, each ending in CRLF."""
    payload = {200: body, 404: b"not found", 400: b"bad ms"}.get(status, b"")
    allowed = "Allow: GET, HEAD\r\n" if status == 405 and allow else ""
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nServer: {server}\r\n"
            f"Date: {date or formatdate(usegmt=True)}\r\nContent-Type: {content_type}\r\n"
            f"{allowed}{extra}Content-Length: {len(payload)}\r\n\r\n")
    sends_body = request.method != "HEAD" or head_sends_body
    return head.encode("latin-1") + (payload if sends_body else b"")


def _status_for(request: FakeRequest, head_status: int, other_method_status: int) -> int:
    if request.path not in HELLO_PATHS:
        return 404
    if request.method == "GET":
        return 200
    return head_status if request.method == "HEAD" else other_method_status


JSON_BODY = b'{"message":"Hello, World!"}'
WAIT_PATHS = ("/delay", "/blocking")
MAX_MS = 10_000


@dataclass(frozen=True)
class Endpoints:
    """How the fake answers /json, /delay and /blocking: right by default (a wait of the
    ms asked, by sleeping); each field makes them wrong in one way."""

    json_body: bytes = JSON_BODY
    json_type: str = "application/json"
    extra_wait_ms: float = 0.0  # added to the ms asked: < 0 answers early, > 0 late
    bad_ms_status: int = 400
    bad_ms_wait_s: float = 0.0  # how long a bad ms waits before its answer
    other_method_status: int = 405
    allow: bool = True  # a 405 names the methods allowed
    head_sends_body: bool = False
    # The kind of thread /blocking says its wait ran on (X-Httplab-Thread); None: no header.
    blocking_thread: str | None = "platform"


def endpoints_answer(request: FakeRequest, endpoints: Endpoints = Endpoints()) -> bytes:
    """hello_answer, and the workloads' endpoints as Endpoints says."""
    path, _, query = request.path.partition("?")
    if path not in ("/json", *WAIT_PATHS):
        return hello_answer(request)
    status = (200 if request.method in ("GET", "HEAD") else endpoints.other_method_status)
    if path == "/json":
        return _response(request, status, endpoints.json_body, endpoints.json_type,
                         head_sends_body=endpoints.head_sends_body, allow=endpoints.allow)
    ms = _ms(query)
    if ms is None and status == 200:
        time.sleep(endpoints.bad_ms_wait_s)
        return _response(request, endpoints.bad_ms_status, b"", "text/plain")
    if status == 200:
        time.sleep(max(0.0, ms + endpoints.extra_wait_ms) / 1000)
    thread = endpoints.blocking_thread if path == "/blocking" else None
    return _response(request, status, b"Hello, World!", "text/plain",
                     head_sends_body=endpoints.head_sends_body, allow=endpoints.allow,
                     extra=f"X-Httplab-Thread: {thread}\r\n" if thread else "")


def _ms(query: str) -> int | None:
    """The ms a query asks for, or None when it is missing or bad."""
    values = dict(pair.partition("=")[::2] for pair in query.split("&") if pair)
    raw = values.get("ms", "")
    return int(raw) if raw.isdigit() and 1 <= int(raw) <= MAX_MS else None


def read_request(rfile: BinaryIO) -> FakeRequest | None:
    """The next request on a connection, its body read and dropped; None at the end."""
    request_line = rfile.readline()
    if not request_line:
        return None
    method, path, version = request_line.decode("latin-1").split()
    headers = []
    while (line := rfile.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers.append((name.strip().lower(), value.strip()))
    request = FakeRequest(method, path, version, tuple(headers))
    rfile.read(int(request.header("Content-Length") or 0))
    return request


def serve_http11(rfile: BinaryIO, wfile: BinaryIO, answer: Answer, leave_open: bool) -> None:
    """Answers a connection's requests in order until it ends, or until one not kept alive
    has its answer (unless leave_open)."""
    while (request := read_request(rfile)) is not None:
        wfile.write(answer(request))
        if not request.keep_alive and not leave_open:
            return  # closes the connection


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        server: FakeServer = self.server  # type: ignore[assignment]
        serve_http11(self.rfile, self.wfile, server.answer, server.leave_open)


class FakeServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, answer: Answer, leave_open: bool = False, port: int = 0):
        """leave_open: never close a connection, even one not kept alive (HTTP/1.0); port 0:
        any free one."""
        super().__init__(("127.0.0.1", port), _Handler)
        self.answer, self.leave_open = answer, leave_open
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def __enter__(self) -> "FakeServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
