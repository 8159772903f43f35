"""A stand-in server that answers at once but freezes, as a long GC pause would: once every
period (1 s) it stops answering for the pause (200 ms); requests that arrive meanwhile wait
and are answered when it wakes. A fixed-rate run against it must show those waits.

Usage: python3 freezing_server.py [--port 0] [--pause-ms 200] [--period-s 1] [--phase-s 0.5]
                                  [--status 200] [--lifetime-s 60]

It binds 127.0.0.1 only (port 0: a free one) and prints "listening on 127.0.0.1:PORT" once
it accepts. The first pause starts --phase-s after that, so that a run started at once
meets whole pauses only, and as many as it lasts seconds. It stops on SIGTERM or SIGINT, and by itself after --lifetime-s, so that a test
that dies cannot leave it behind. --status 500 answers every request with a 500 (kept
alive), for runs with errors; --pause-ms 0 never freezes.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import time

BODY = b"Hello, World!"
REASONS = {200: "OK", 500: "Internal Server Error"}


def response(status: int) -> bytes:
    head = (f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}\r\n"
            f"Content-Type: text/plain\r\nContent-Length: {len(BODY)}\r\n\r\n")
    return head.encode() + BODY


async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 reply: bytes) -> None:
    try:
        while await reader.readuntil(b"\r\n\r\n"):
            writer.write(reply)
            await writer.drain()
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        pass  # the client hung up
    finally:
        writer.close()


async def freeze_now_and_then(pause_s: float, period_s: float, phase_s: float) -> None:
    """Blocks the one event loop for pause_s once every period, on a fixed schedule: no
    connection is read or answered meanwhile, as in a stop-the-world pause."""
    if pause_s <= 0:
        return
    loop = asyncio.get_running_loop()
    next_pause = loop.time() + phase_s
    while True:
        await asyncio.sleep(max(0.0, next_pause - loop.time()))
        time.sleep(pause_s)
        next_pause += period_s


async def serve(options: argparse.Namespace) -> None:
    reply = response(options.status)
    server = await asyncio.start_server(lambda r, w: answer(r, w, reply), "127.0.0.1",
                                        options.port, backlog=1024)
    stop = asyncio.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signal_number, stop.set)
    port = server.sockets[0].getsockname()[1]
    print(f"listening on 127.0.0.1:{port}", flush=True)
    freezer = asyncio.create_task(freeze_now_and_then(options.pause_ms / 1000,
                                                      options.period_s, options.phase_s))
    try:
        await asyncio.wait_for(stop.wait(), options.lifetime_s)
    except asyncio.TimeoutError:
        pass
    freezer.cancel()
    server.close()


def parse_options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--pause-ms", type=float, default=200.0)
    parser.add_argument("--period-s", type=float, default=1.0)
    parser.add_argument("--phase-s", type=float, default=0.5)
    parser.add_argument("--status", type=int, default=200)
    parser.add_argument("--lifetime-s", type=float, default=60.0)
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(serve(parse_options()))
