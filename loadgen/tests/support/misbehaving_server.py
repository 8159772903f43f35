"""A tiny HTTP server that misbehaves on purpose, to capture wrk's error reports.

  reset   read the request, then close with RST     -> wrk "read" socket errors
  slow    every other connection answers after 1.5s -> wrk "timeout" errors with --timeout 1s
  silent  accept and read, never answer             -> 0 requests
  vanish  accept wrk's first probe, then stop listening -> refused connects, 0 requests
          (wrk 4.1 counts a refused non-blocking connect as a "write" error)

Usage: python3 misbehaving_server.py MODE PORT   (binds 127.0.0.1 only; stop with SIGTERM)
"""

from __future__ import annotations

import socket
import struct
import sys
import threading
import time

RESPONSE = b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\nContent-Type: text/plain\r\n\r\nhello world\n"
SLOW_ANSWER_S = 1.5


def reset(conn: socket.socket, _index: int) -> None:
    conn.recv(65536)
    # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def slow(conn: socket.socket, index: int) -> None:
    delay = SLOW_ANSWER_S if index % 2 else 0.0
    while conn.recv(65536):
        time.sleep(delay)
        conn.sendall(RESPONSE)


def silent(conn: socket.socket, _index: int) -> None:
    while conn.recv(65536):
        pass


HANDLERS = {"reset": reset, "slow": slow, "silent": silent}


def vanish(listener: socket.socket) -> None:
    # wrk probes the address once before it starts; only later connects can fail.
    conn, _ = listener.accept()
    conn.close()
    listener.close()
    threading.Event().wait()


def serve(mode: str, port: int) -> None:
    listener = socket.create_server(("127.0.0.1", port), backlog=128)
    if mode == "vanish":
        vanish(listener)
        return
    handler = HANDLERS[mode]
    index = 0
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=guarded, args=(handler, conn, index), daemon=True).start()
        index += 1


def guarded(handler, conn: socket.socket, index: int) -> None:
    try:
        handler(conn, index)
    except OSError:
        pass  # the client hung up: nothing to serve


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
