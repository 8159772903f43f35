"""URL=: the one check of a server the user started, before any load: a GET must answer
2xx. Nothing else is asked of it (its answers are not checked for conformance)."""

from __future__ import annotations

from urllib.parse import urlsplit

from httplab.checking.http_wire import Connection, WireError

TIMEOUT_S = 5.0


class UrlCheckError(Exception):
    """The URL does not answer as a server under test must; the message is for the user."""


def check_answers(url: str, timeout_s: float = TIMEOUT_S) -> int:
    """The status of one GET of `url`; UrlCheckError unless it is 2xx."""
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        with Connection(parts.hostname, parts.port or 80, timeout_s, parts.netloc) as connection:
            status = connection.get(path).status
    except (OSError, WireError) as error:
        raise UrlCheckError(f"URL {url} does not answer: {error}; start your server first, "
                            "or check the address") from None
    if not 200 <= status < 300:
        raise UrlCheckError(f"URL {url} answered a GET with {status}, not 2xx: point URL at a "
                            "path that answers 200")
    return status
