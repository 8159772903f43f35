#!/usr/bin/env python3
"""A stand-in for `java` that needs no JVM: it serves the hello world on 127.0.0.1:$PORT at
once and prints its httplab-ready line only after $HTTPLAB_FAKE_READY_DELAY_S seconds, or
never when that is "never". It ignores its arguments (`-jar server.jar`), so a backend runs
it in place of java. SIGTERM stops it."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BODY = b"Hello, World!"
READY = ("httplab-ready framework=Fake version=1 transport=epoll workers=2 observed_workers=2 "
         "bind=127.0.0.1:{port} blocking_pool=2 db_pool=10 executor=pool protocol=h1 tls=none java=25.0.1 "
         "gc=G1 heap_max_mb=64 vendor=Fake Vendor")


class HelloHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # head and body are two writes: no 40 ms delayed-ACK stall

    def version_string(self) -> str:
        return "Fake"

    def _answer(self, with_body: bool) -> None:
        if self.path not in ("/", "/plaintext"):
            self._status_only(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=UTF-8")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        if with_body:
            self.wfile.write(BODY)

    def _status_only(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._answer(with_body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(with_body=False)

    def do_POST(self) -> None:  # noqa: N802
        self._status_only(405 if self.path in ("/", "/plaintext") else 404)

    def log_message(self, *args: object) -> None:
        pass


def main() -> None:
    port = int(os.environ["PORT"])
    delay = os.environ.get("HTTPLAB_FAKE_READY_DELAY_S", "0")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = ThreadingHTTPServer(("127.0.0.1", port), HelloHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"fake server answering on 127.0.0.1:{port}", flush=True)
    if delay != "never":
        time.sleep(float(delay))
        print(READY.format(port=port), flush=True)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main()
