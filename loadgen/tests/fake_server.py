"""A tiny HTTP/1.1 server on 127.0.0.1 whose answers a test chooses, to show the
conformance check fails when a server is wrong."""

from __future__ import annotations

import socketserver
import threading
from email.utils import formatdate
from typing import Callable

Answer = Callable[[str], bytes]  # request path -> full response bytes


def hello_answer(path: str, body: bytes = b"Hello, World!", server: str = "Fake",
                 date: str | None = None, content_type: str = "text/plain") -> bytes:
    status = "200 OK" if path in ("/", "/plaintext") else "404 Not Found"
    payload = body if status.startswith("200") else b"not found"
    head = (f"HTTP/1.1 {status}\r\nServer: {server}\r\nDate: {date or formatdate(usegmt=True)}"
            f"\r\nContent-Type: {content_type}\r\nContent-Length: {len(payload)}\r\n\r\n")
    return head.encode("latin-1") + payload


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        while True:
            request_line = self.rfile.readline()
            if not request_line:
                return
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass
            path = request_line.split()[1].decode()
            self.wfile.write(self.server.answer(path))  # type: ignore[attr-defined]


class FakeServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, answer: Answer):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answer = answer
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
