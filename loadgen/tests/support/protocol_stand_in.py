"""A stand-in server for the protocol checks, on 127.0.0.1 in threads: in plaintext or over
TLS with a RunTls's files, choosing by ALPN from the protocols it is given, then speaking
as told, right or wrong: HTTP/2 (the h2 library's server side), HTTP/1.1 (as
tests/fake_server.py), or a bare "HTTP/1.1 400 Bad Request" to whatever comes, as an
HTTP/1.1 server answers the HTTP/2 preface. Its HTTP/2 answers are fake_server's answers
(the hello world and the lab's endpoints) put into frames, so that one Answer serves both."""

from __future__ import annotations

import socket
import socketserver
import ssl
import threading
from collections.abc import Sequence

import h2.config
import h2.connection
import h2.events
import h2.exceptions

from httplab.checking.http_wire import parse_head
from httplab.run_tls import RunTls
from tests.fake_server import Answer, FakeRequest, endpoints_answer, serve_http11

SPEAKS_H2, SPEAKS_H1, SPEAKS_H1_400 = "h2", "h1", "h1-400"
BAD_REQUEST = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
IDLE_TIMEOUT_S = 10.0  # a connection the client left is given up after this


class ProtocolStandIn(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, speaks: str, tls: RunTls | None = None, alpn: Sequence[str] = (),
                 answer: Answer = endpoints_answer, streams_per_connection: int = 0):
        """speaks: SPEAKS_H2, SPEAKS_H1 or SPEAKS_H1_400, whatever ALPN chose; alpn: the
        protocols it may choose, in its order of preference (none: no ALPN answer);
        streams_per_connection: in HTTP/2, a GOAWAY after answering that many (0: never)."""
        super().__init__(("127.0.0.1", 0), _Handler)
        self.speaks, self.answer = speaks, answer
        self.streams_per_connection = streams_per_connection
        self.context = _server_context(tls, alpn) if tls else None
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def __enter__(self) -> ProtocolStandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()


def _server_context(tls: RunTls, alpn: Sequence[str]) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls.certificate_file, tls.key_file)
    if alpn:
        context.set_alpn_protocols(list(alpn))
    return context


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        server: ProtocolStandIn = self.server  # type: ignore[assignment]
        sock: socket.socket = self.request
        sock.settimeout(IDLE_TIMEOUT_S)
        try:
            if server.context is not None:
                sock = server.context.wrap_socket(sock, server_side=True)
            _SPEECH[server.speaks](sock, server)
        except (OSError, ValueError, h2.exceptions.ProtocolError):
            pass  # the client went away, or sent what this speech cannot read: the end
        finally:
            sock.close()


def _speak_h1(sock: socket.socket, server: ProtocolStandIn) -> None:
    with sock.makefile("rb") as rfile, sock.makefile("wb", buffering=0) as wfile:
        serve_http11(rfile, wfile, server.answer, leave_open=False)


def _speak_h1_400(sock: socket.socket, server: ProtocolStandIn) -> None:
    sock.recv(65536)
    sock.sendall(BAD_REQUEST)


def _speak_h2(sock: socket.socket, server: ProtocolStandIn) -> None:
    """Answers each stream once its request has ended, unless the client reset it."""
    config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8")
    connection = h2.connection.H2Connection(config=config)
    connection.initiate_connection()
    sock.sendall(connection.data_to_send())
    requests: dict[int, list[tuple[str, str]]] = {}
    answered = 0
    while data := sock.recv(65536):
        ended = []
        for event in connection.receive_data(data):
            if isinstance(event, h2.events.RequestReceived):
                requests[event.stream_id] = list(event.headers)
            elif isinstance(event, h2.events.DataReceived):
                connection.acknowledge_received_data(event.flow_controlled_length,
                                                     event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                ended.append(event.stream_id)
            elif isinstance(event, h2.events.StreamReset):
                requests.pop(event.stream_id, None)
        for stream_id in ended:
            if stream_id in requests:
                _answer_stream(connection, stream_id, requests.pop(stream_id), server.answer)
                answered += 1
        done = 0 < server.streams_per_connection <= answered
        if done:
            connection.close_connection()  # GOAWAY, no error: this connection is done
        sock.sendall(connection.data_to_send())
        if done:
            while sock.recv(65536):
                pass  # until the client closes: a close with bytes unread would reset it
            return


def _answer_stream(connection: h2.connection.H2Connection, stream_id: int,
                   headers: list[tuple[str, str]], answer: Answer) -> None:
    """fake_server's HTTP/1.1 answer to the request, sent as HEADERS and DATA frames."""
    fields = dict(headers)
    request = FakeRequest(fields[":method"], fields[":path"], "HTTP/2",
                          tuple((name, value) for name, value in headers
                                if not name.startswith(":")))
    head, _, body = answer(request).partition(b"\r\n\r\n")
    status, response_headers = parse_head(head.decode("latin-1"))
    connection.send_headers(stream_id, [(":status", str(status)),
                                        *((name.lower(), value)
                                          for name, value in response_headers)],
                            end_stream=not body)
    if body:
        connection.send_data(stream_id, body, end_stream=True)


_SPEECH = {SPEAKS_H2: _speak_h2, SPEAKS_H1: _speak_h1, SPEAKS_H1_400: _speak_h1_400}
