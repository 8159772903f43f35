"""Which Docker engines a bench drives: the server's (SERVER_HOST) and the load
generators' (LOADGEN_HOSTS), and the address the generators aim at (TARGET_ADDRESS).
Pure: parsing, checking and splitting the load; nothing here runs a command.

An engine is reached the way the docker CLI reaches one: ssh://user@host (Docker over
SSH, no open TCP port), unix:///path.sock, or the name of a Docker context. Every docker
or Compose command aimed at it gets its variables (DOCKER_HOST or DOCKER_CONTEXT)."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from httplab.addresses import LOOPBACK
from httplab.plan_error import PlanError

_CONTEXT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
_HOST_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$")


@dataclass(frozen=True)
class Engine:
    spec: str  # as the user wrote it
    kind: str  # "ssh", "unix" or "context"

    def environment(self) -> dict[str, str]:
        """The variables that aim the docker CLI and Compose at this engine. DOCKER_HOST
        and DOCKER_CONTEXT exclude each other: the one not used is emptied."""
        if self.kind == "context":
            return {"DOCKER_CONTEXT": self.spec, "DOCKER_HOST": ""}
        return {"DOCKER_HOST": self.spec, "DOCKER_CONTEXT": ""}

    @property
    def host_name(self) -> str | None:
        """The machine's name or address in an ssh:// engine; None for the others."""
        return urlsplit(self.spec).hostname if self.kind == "ssh" else None


def parse_engine(setting: str, text: str) -> Engine:
    """'ssh://root@10.0.0.2' -> Engine(kind='ssh'); PlanError naming the setting otherwise."""
    text = text.strip()
    if text.startswith("ssh://"):
        parts = urlsplit(text)
        if not parts.hostname or parts.path not in ("", "/"):
            raise PlanError(f"{setting}: {text!r} is not ssh://[user@]host[:port]")
        return Engine(text, "ssh")
    if text.startswith("unix://"):
        if not text[len("unix://"):].startswith("/"):
            raise PlanError(f"{setting}: {text!r} is not unix:///absolute/path.sock")
        return Engine(text, "unix")
    if "://" in text:
        raise PlanError(f"{setting}: {text!r}: engines are reached over SSH (ssh://user@host), "
                        "a unix:// socket or a Docker context name; no Docker TCP port")
    if not _CONTEXT_NAME.match(text):
        raise PlanError(f"{setting}: {text!r} is neither ssh://user@host, unix:///path nor "
                        "a Docker context name")
    return Engine(text, "context")


@dataclass(frozen=True)
class Topology:
    """Where the server and the load generators run. None of it set: today's one machine."""

    server: Engine | None  # None: this machine's engine
    generators: tuple[Engine, ...]  # empty: wrk on this machine's engine
    target_address: str  # what wrk aims at, and the only address the server binds

    @property
    def generator_count(self) -> int:
        return max(len(self.generators), 1)

    def described(self) -> str:
        server = self.server.spec if self.server else "this machine"
        generators = ", ".join(engine.spec for engine in self.generators) or "this machine"
        return f"server on {server}, wrk on {generators}, aimed at {self.target_address}"


def make_topology(server_host: str, loadgen_hosts: str, target_address: str) -> Topology | None:
    """The three settings checked together; None when none is set."""
    if not (server_host.strip() or loadgen_hosts.strip() or target_address.strip()):
        return None
    server = parse_engine("SERVER_HOST", server_host) if server_host.strip() else None
    generators = tuple(parse_engine("LOADGEN_HOSTS", part)
                       for part in loadgen_hosts.split(",") if part.strip())
    repeated = sorted({e.spec for e in generators if [g.spec for g in generators].count(e.spec) > 1})
    if repeated:
        raise PlanError(f"LOADGEN_HOSTS names {', '.join(repeated)} more than once")
    address = target_address.strip() or _default_target(server, generators)
    _check_address(address)
    return Topology(server, generators, address)


def _default_target(server: Engine | None, generators: tuple[Engine, ...]) -> str:
    if server is not None and server.host_name:
        return server.host_name
    if server is None and not generators:
        return LOOPBACK
    where = f"SERVER_HOST {server.spec}" if server else "this machine"
    raise PlanError(f"TARGET_ADDRESS is needed: name the address of {where} that the load "
                    "generators reach (it is taken from SERVER_HOST only for ssh://)")


def _check_address(address: str) -> None:
    try:
        ipaddress.ip_address(address)
        return
    except ValueError:
        pass
    if not _HOST_NAME.match(address):
        raise PlanError(f"TARGET_ADDRESS {address!r} is neither an IP address nor a host name")


def split_evenly(total: int, parts: int) -> tuple[int, ...]:
    """500 over 2 -> (250, 250); 5 over 2 -> (3, 2): the first parts take the remainder."""
    base, extra = divmod(total, parts)
    return tuple(base + (1 if index < extra else 0) for index in range(parts))


def split_load(threads: int, connections: int, generators: int) -> tuple[tuple[int, int], ...]:
    """(threads, connections) per generator: both split evenly, at least one thread each and
    never more threads than connections. PlanError when there are more generators than
    connections."""
    if generators > connections:
        raise PlanError(f"{generators} load generators need at least {generators} connections; "
                        f"CONNECTIONS is {connections}")
    shares = split_evenly(connections, generators)
    thread_shares = split_evenly(max(threads, generators), generators)
    return tuple((min(max(t, 1), c), c) for t, c in zip(thread_shares, shares))
