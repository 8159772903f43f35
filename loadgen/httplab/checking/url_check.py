"""URL=: the one check of a server the user started, before any load: a GET must answer
2xx. Nothing else is asked of it (its answers are not checked for conformance)."""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

TIMEOUT_S = 5.0


class UrlCheckError(Exception):
    """The URL does not answer as a server under test must; the message is for the user."""


def check_answers(url: str, timeout_s: float = TIMEOUT_S) -> int:
    """The status of one GET of `url`; UrlCheckError unless it is 2xx."""
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout_s)
    try:
        connection.request("GET", path or "/")
        status = connection.getresponse().status
    except (OSError, http.client.HTTPException) as error:
        raise UrlCheckError(f"URL {url} does not answer: {error}; start your server first, "
                            "or check the address") from None
    finally:
        connection.close()
    if not 200 <= status < 300:
        raise UrlCheckError(f"URL {url} answered a GET with {status}, not 2xx: point URL at a "
                            "path that answers 200")
    return status
