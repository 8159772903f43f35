"""A minimal HTTP/1.1 client over one socket, for checks that need to see the wire:
keep-alive, pipelining, HEAD and HTTP/1.0 connection close, in plaintext or over TLS. Only
what the conformance check needs: no redirects, no trailers."""

from __future__ import annotations

import socket
import ssl
import time
from dataclasses import dataclass

from httplab.addresses import LOOPBACK
from httplab.checking.tls_wire import open_socket

MAX_HEADER_BYTES = 16 * 1024


class WireError(Exception):
    """The server's bytes are not an HTTP/1.1 response we can read."""


@dataclass(frozen=True)
class Response:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        for key, value in self.headers:
            if key.lower() == wanted:
                return value
        return None


def request_bytes(path: str, method: str = "GET", version: str = "HTTP/1.1",
                  host: str = LOOPBACK, body: bytes | None = None) -> bytes:
    """One request, without a Connection header; a body, even an empty one, goes with
    its Content-Length."""
    head = f"{method} {path} {version}\r\nHost: {host}\r\nAccept: */*\r\n"
    if body is not None:
        head += f"Content-Length: {len(body)}\r\n"
    return (head + "\r\n").encode("ascii") + (body or b"")


class Connection:
    """One kept-alive TCP connection that reads responses in order; over TLS with a
    context (tls_wire.client_context)."""

    def __init__(self, host: str, port: int, timeout: float, host_header: str = LOOPBACK,
                 context: ssl.SSLContext | None = None):
        self._sock = open_socket(host, port, timeout, context)
        self._buffer, self._host_header = b"", host_header

    @property
    def socket(self) -> socket.socket:
        """The connection's socket: an ssl.SSLSocket over TLS."""
        return self._sock

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self._sock.close()

    def send(self, data: bytes) -> None:
        self._sock.sendall(data)

    def get(self, path: str) -> Response:
        return self.request(path)

    def request(self, path: str, method: str = "GET", body: bytes | None = None) -> Response:
        """Sends one HTTP/1.1 request and reads its response; a HEAD's has no body."""
        self.send(request_bytes(path, method, host=self._host_header, body=body))
        return self.read_response(head_only=method == "HEAD")

    def read_response(self, head_only: bool = False) -> Response:
        """The next response; with head_only (the answer to HEAD) only its head is read,
        whatever Content-Length it announces."""
        head = self._read_until(b"\r\n\r\n")
        status, headers = parse_head(head.decode("latin-1"))
        if head_only:
            return Response(status, headers, b"")
        if _is_chunked(headers):
            return Response(status, headers, self._read_chunked())
        return Response(status, headers, self._read_exactly(_content_length(headers)))

    def read_until_closed(self, wait_s: float) -> tuple[bytes, bool]:
        """Every byte not yet read, up to the server closing the connection or wait_s
        running out; and whether the server closed it."""
        deadline = time.monotonic() + wait_s
        data, self._buffer = self._buffer, b""
        while (left_s := deadline - time.monotonic()) > 0:
            self._sock.settimeout(left_s)
            try:
                chunk = self._sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                return data, True
            data += chunk
        return data, False

    def _read_chunked(self) -> bytes:
        body = b""
        while True:
            size_line = self._read_until(b"\r\n").split(b";", 1)[0].strip()
            try:
                size = int(size_line, 16)
            except ValueError:
                raise WireError(f"bad chunk size: {size_line!r}") from None
            chunk = self._read_exactly(size + 2)
            if size == 0:
                return body
            body += chunk[:-2]

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self._buffer:
            if len(self._buffer) > MAX_HEADER_BYTES:
                raise WireError("response head larger than 16 KiB")
            self._fill()
        head, self._buffer = self._buffer.split(marker, 1)
        return head

    def _read_exactly(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._fill()
        data, self._buffer = self._buffer[:count], self._buffer[count:]
        return data

    def _fill(self) -> None:
        chunk = self._sock.recv(65536)
        if not chunk:
            raise WireError("connection closed by the server mid-response")
        self._buffer += chunk


def parse_head(head: str) -> tuple[int, tuple[tuple[str, str], ...]]:
    """Status code and headers from a response head (without the blank line)."""
    status_line, *header_lines = head.split("\r\n")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise WireError(f"not an HTTP/1.x status line: {status_line!r}")
    headers = []
    for line in header_lines:
        name, sep, value = line.partition(":")
        if not sep:
            raise WireError(f"malformed header line: {line!r}")
        headers.append((name.strip(), value.strip()))
    return int(parts[1]), tuple(headers)


def parse_closed_response(data: bytes) -> Response:
    """A response read up to the connection's close: all that follows the head is its
    body, as HTTP/1.0 allows (so stray bytes after a Content-Length show in the body)."""
    head, blank_line, body = data.partition(b"\r\n\r\n")
    if not blank_line:
        raise WireError(f"connection closed before the end of the response head: {data[:60]!r}")
    status, headers = parse_head(head.decode("latin-1"))
    return Response(status, headers, body)


def _is_chunked(headers: tuple[tuple[str, str], ...]) -> bool:
    return any(name.lower() == "transfer-encoding" and "chunked" in value.lower()
               for name, value in headers)


def _content_length(headers: tuple[tuple[str, str], ...]) -> int:
    for name, value in headers:
        if name.lower() == "content-length":
            if not value.isdigit():
                raise WireError(f"bad Content-Length: {value!r}")
            return int(value)
    raise WireError("response has neither Content-Length nor chunked encoding")
