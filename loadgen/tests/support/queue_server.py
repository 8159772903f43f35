"""A stand-in server of known capacity: one worker that serves requests one at a time, each
for a fixed service time, in the order they arrive, whatever the connection. Its capacity is
exactly 1 / service time requests a second: below it no request waits, above it the queue
(and every latency) grows without end.

Usage: python3 queue_server.py [--port 0] [--service-ms 0.667] [--lifetime-s 120]

The worker is a thread of its own that sleeps to each request's deadline, so neither the
event loop's timer (a millisecond granularity) nor Python's cost per request lowers the
capacity. It binds 127.0.0.1 only (port 0: a free one),
prints "listening on 127.0.0.1:PORT" once it accepts, and stops on SIGTERM, SIGINT, or by
itself after --lifetime-s, so that a test that dies cannot leave it behind.
"""

from __future__ import annotations

import argparse
import asyncio
import queue
import signal
import threading
import time
from collections.abc import Callable

REPLY = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\n"
         b"Hello, World!")


class Worker:
    """The one worker: a thread that takes requests in arrival order and finishes each
    at max(its arrival, the previous one's end) + the service time, on the monotonic clock,
    then hands the answer back to the event loop. Sleeping to a deadline, not for a
    duration, keeps late wake-ups from adding up. A request whose client has hung up is
    dropped unserved, as a server that sees the closed connection would: otherwise the
    backlog of an overloaded run would delay the next one."""

    def __init__(self, service_s: float):
        self.service_s, self.requests = service_s, queue.SimpleQueue()
        threading.Thread(target=self._serve, daemon=True).start()

    def submit(self, loop: asyncio.AbstractEventLoop,
               hung_up: Callable[[], bool]) -> asyncio.Future:
        done = loop.create_future()
        self.requests.put((time.monotonic(), loop, done, hung_up))
        return done

    def _serve(self) -> None:
        free_at = 0.0
        while True:
            arrived, loop, done, hung_up = self.requests.get()
            if hung_up():
                continue
            free_at = max(arrived, free_at) + self.service_s
            time.sleep(max(0.0, free_at - time.monotonic()))
            loop.call_soon_threadsafe(_finish, done)


def _finish(done: asyncio.Future) -> None:
    if not done.cancelled():
        done.set_result(None)


async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 worker: Worker) -> None:
    loop = asyncio.get_running_loop()
    try:
        while await reader.readuntil(b"\r\n\r\n"):
            await worker.submit(loop, reader.at_eof)
            writer.write(REPLY)
            await writer.drain()
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError,
            asyncio.CancelledError):
        pass  # the client hung up, or the server is stopping
    finally:
        writer.close()


async def serve(options: argparse.Namespace) -> None:
    worker = Worker(options.service_ms / 1000)
    server = await asyncio.start_server(lambda r, w: answer(r, w, worker), "127.0.0.1",
                                        options.port, backlog=4096)
    stop = asyncio.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signal_number, stop.set)
    print(f"listening on 127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
    try:
        await asyncio.wait_for(stop.wait(), options.lifetime_s)
    except asyncio.TimeoutError:
        pass
    server.close()


def parse_options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--service-ms", type=float, default=1000 / 1500)
    parser.add_argument("--lifetime-s", type=float, default=120.0)
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(serve(parse_options()))
