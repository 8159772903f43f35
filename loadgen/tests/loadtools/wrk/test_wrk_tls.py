"""wrk over TLS (an h1-tls cell) keeps its connections: against a stand-in TLS server that
counts the handshakes it completes, a run of the lab's wrk command makes exactly one
handshake per connection, so the cell's CPU is records' cryptography, not handshakes."""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading

import pytest

from httplab.loadtools.wrk.command import (JSON_PATH_VARIABLE, WrkRequest, wrk_arguments,
                                           wrk_time_limit_s)
from httplab.paths import LUA_SCRIPT
from httplab.running.tls.certificates import make_run_tls

ANSWER = (b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\n\r\n"
          b"Hello, World!")


class CountingTlsServer:
    """HTTP/1.1 over TLS on 127.0.0.1, kept alive, the hello world to every request; counts
    the handshakes it completed."""

    def __init__(self, run_tls):
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(run_tls.certificate_file, run_tls.key_file)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.handshakes, self._lock = 0, threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        try:
            with self.context.wrap_socket(connection, server_side=True) as tls:
                with self._lock:
                    self.handshakes += 1
                buffer = b""
                while chunk := tls.recv(65536):
                    buffer += chunk
                    while b"\r\n\r\n" in buffer:
                        _, buffer = buffer.split(b"\r\n\r\n", 1)
                        tls.sendall(ANSWER)
        except (OSError, ssl.SSLError):
            return

    def close(self) -> None:
        self.listener.close()


@pytest.mark.slow
def test_wrk_over_tls_makes_one_handshake_per_connection(tmp_path):
    server = CountingTlsServer(make_run_tls(tmp_path))
    try:
        request = WrkRequest(threads=2, connections=6, duration="1s", duration_s=1,
                             url=f"https://127.0.0.1:{server.port}/")
        completed = subprocess.run(["wrk", *wrk_arguments(request, str(LUA_SCRIPT))],
                                   capture_output=True, text=True,
                                   timeout=wrk_time_limit_s(request),
                                   env={JSON_PATH_VARIABLE: str(tmp_path / "wrk.json"),
                                        "PATH": "/usr/bin:/bin"})
    finally:
        server.close()
    assert completed.returncode == 0, completed.stderr
    assert "Socket errors" not in completed.stdout, completed.stdout
    assert server.handshakes == request.connections
