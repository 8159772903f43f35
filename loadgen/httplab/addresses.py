"""The address a run on one machine uses for everything: the server binds it, the load
generators and the checks aim at it, the database listens on it. Where a run on several
machines decides its target address instead: running/engines.py."""

from __future__ import annotations

LOOPBACK = "127.0.0.1"
