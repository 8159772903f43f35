"""The error a backend, or the Docker engines and tools it drives, stops with: one line the
user sees. A leaf, so the backends, the databases and docker/ all raise it."""

from __future__ import annotations


class BackendError(Exception):
    """A backend could not do what was asked; the message is for the user."""
