"""A small HTTP/2 client over one connection, for the checks that need to see HTTP/2 on the
wire: requests as streams (several at once when asked), each answer read as an
http_wire.Response (status, headers, body). Over TLS the connection must have negotiated h2
by ALPN; in cleartext it speaks with prior knowledge (the preface at once, no Upgrade).
Built on the h2 library, which the wrk image lacks: conformance.py imports this module only
for HTTP/2."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.events
import h2.exceptions

from httplab.addresses import LOOPBACK
from httplab.checking.http_wire import Response, WireError
from httplab.checking.tls_wire import alpn_of, h2_alpn_problem, open_socket

FRAME_HEADER_BYTES = 9
SETTINGS_FRAME_TYPE = 0x4
MAX_STATUS_LINE = 200  # what is read of an HTTP/1.x answer, to quote its status line
QUOTED_BYTES = 40
RECEIVE_BYTES = 65536


@dataclass
class _Stream:
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytearray = field(default_factory=bytearray)
    ended: bool = False

    def response(self) -> Response:
        status = dict(self.headers).get(":status", "")
        if not status.isdigit():
            raise WireError(f"an HTTP/2 answer without a valid :status: {status!r}")
        return Response(int(status), tuple((name, value) for name, value in self.headers
                                           if not name.startswith(":")), bytes(self.body))


class H2Client:
    """One HTTP/2 connection on an open socket (plaintext or TLS); start() before requests."""

    def __init__(self, sock: socket.socket, authority: str = LOOPBACK):
        self._sock, self._authority = sock, authority
        self._tls = isinstance(sock, ssl.SSLSocket)
        config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
        self._h2 = h2.connection.H2Connection(config=config)
        self._streams: dict[int, _Stream] = {}
        self._goaway = ""  # what the server's GOAWAY said, once it sent one

    @classmethod
    def open(cls, host: str, port: int, timeout: float,
             context: ssl.SSLContext | None = None) -> H2Client:
        """Connected and started: over TLS with a context (which must offer h2), where the
        server must have chosen h2 by ALPN; in cleartext with prior knowledge without one."""
        client = cls(open_socket(host, port, timeout, context))
        try:
            problem = h2_alpn_problem(alpn_of(client._sock)) if context else ""
            if problem:
                raise WireError(problem)
            client.start()
        except BaseException:
            client.close()
            raise
        return client

    def __enter__(self) -> H2Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._sock.close()

    @property
    def _where(self) -> str:
        return ("on a connection where h2 was negotiated" if self._tls
                else "to the HTTP/2 preface sent with prior knowledge")

    def start(self) -> None:
        """Sends the preface and the client's SETTINGS; the server's first frame must be its
        SETTINGS (not an HTTP/1.x answer, nor any other bytes)."""
        with self._protocol_errors():
            self._h2.initiate_connection()
        self._flush()
        self._receive(self._first_frame_bytes())

    def _first_frame_bytes(self) -> bytes:
        data = b""
        while len(data) < FRAME_HEADER_BYTES:
            chunk = self._sock.recv(RECEIVE_BYTES)
            if not chunk:
                raise WireError(f"closed the connection {self._where} without a SETTINGS "
                                f"frame{f' after {data!r}' if data else ''}")
            data += chunk
        if data.startswith(b"HTTP/"):
            line = self._status_line(data)
            raise WireError(f"answered {line.split(' ')[0]} {self._where}: {line!r}")
        if data[3] != SETTINGS_FRAME_TYPE:
            raise WireError(f"answered bytes that are not an HTTP/2 SETTINGS frame "
                            f"{self._where}: {data[:QUOTED_BYTES]!r}")
        return data

    def _status_line(self, data: bytes) -> str:
        """The first line of an HTTP/1.x answer, read on while it is cut short."""
        while b"\r\n" not in data and len(data) < MAX_STATUS_LINE:
            try:
                chunk = self._sock.recv(RECEIVE_BYTES)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        return data.split(b"\r\n", 1)[0][:MAX_STATUS_LINE].decode("latin-1")

    def get(self, path: str) -> Response:
        return self.request(path)

    def request(self, path: str, method: str = "GET", body: bytes | None = None) -> Response:
        """One request on a stream of its own, and its answer."""
        return self.read_response(self.send_request(path, method, body))

    def send_request(self, path: str, method: str = "GET", body: bytes | None = None) -> int:
        """Opens a stream with the request (a body, even an empty one, with its
        content-length) and returns its id, without waiting for the answer."""
        if self._goaway:
            raise WireError(self._goaway)
        headers = [(":method", method), (":scheme", "https" if self._tls else "http"),
                   (":authority", self._authority), (":path", path), ("accept", "*/*")]
        if body is not None:
            headers.append(("content-length", str(len(body))))
        with self._protocol_errors():
            stream_id = self._h2.get_next_available_stream_id()
            self._h2.send_headers(stream_id, headers, end_stream=not body)
            if body:
                self._h2.send_data(stream_id, body, end_stream=True)
        self._streams[stream_id] = _Stream()
        self._flush()
        return stream_id

    def read_response(self, stream_id: int) -> Response:
        """Reads the connection until the stream's answer has ended."""
        stream = self._streams[stream_id]
        while not stream.ended:
            if self._goaway:
                raise WireError(self._goaway)
            chunk = self._sock.recv(RECEIVE_BYTES)
            if not chunk:
                raise WireError("connection closed by the server mid-response")
            self._receive(chunk)
        del self._streams[stream_id]
        return stream.response()

    def _receive(self, data: bytes) -> None:
        with self._protocol_errors():
            events = self._h2.receive_data(data)
            for event in events:
                self._on(event)
        self._flush()

    def _on(self, event: h2.events.Event) -> None:
        stream = self._streams.get(getattr(event, "stream_id", 0))
        if isinstance(event, h2.events.ConnectionTerminated):
            # A stream that ended before it stays answered; the others fail with it.
            self._goaway = (f"the server ended the connection (GOAWAY {event.error_code!r}"
                            f"{f', {event.additional_data!r}' if event.additional_data else ''})")
        if isinstance(event, h2.events.DataReceived):
            self._h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        if stream is None:
            return  # the connection's own, or a stream this client reset
        if isinstance(event, h2.events.ResponseReceived):
            stream.headers = list(event.headers)
        elif isinstance(event, h2.events.DataReceived):
            stream.body += event.data
        elif isinstance(event, h2.events.StreamEnded):
            stream.ended = True
        elif isinstance(event, h2.events.StreamReset):
            raise WireError(f"the server reset stream {event.stream_id} "
                            f"({event.error_code!r}) before its answer ended")

    def _flush(self) -> None:
        data = self._h2.data_to_send()
        if data:
            self._sock.sendall(data)

    @contextmanager
    def _protocol_errors(self) -> Iterator[None]:
        """The h2 library's refusals of what the server sent, as a WireError naming them."""
        try:
            yield
        except h2.exceptions.ProtocolError as error:
            raise WireError(f"HTTP/2 protocol error: {type(error).__name__}: {error}") from None
