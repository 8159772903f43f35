"""Starts a stand-in server of tests/support (freezing_server.py, queue_server.py) on a free
port of 127.0.0.1 and stops it afterwards, whatever the test did."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

SUPPORT = Path(__file__).parent


def stand_in_url(script: str, *arguments: str) -> Iterator[str]:
    """Yields the server's URL once it listens (it prints "listening on 127.0.0.1:PORT")."""
    server = subprocess.Popen([sys.executable, str(SUPPORT / script), *arguments],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        assert line.startswith("listening on 127.0.0.1:"), line
        yield f"http://{line.removeprefix('listening on ')}/"
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
