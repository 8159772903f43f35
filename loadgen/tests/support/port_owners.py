"""Whether a TCP port of this host listens through a process that descends from a given one
(from /proc): how the fixed-port guard (shared_host.py) tells a test's own server from
another program's, such as a bench running beside the tests."""

from __future__ import annotations

import os
from pathlib import Path

TCP_TABLES = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))
LISTEN = "0A"  # the state column of a listening socket
_foreign: set[str] = set()  # sockets already found to be another program's


def listening_sockets(port: int) -> set[str]:
    """The inodes of the sockets listening on `port` in this network namespace."""
    inodes = set()
    for table in TCP_TABLES:
        try:
            rows = table.read_text().splitlines()[1:]
        except OSError:
            continue
        for fields in (row.split() for row in rows):
            if fields[3] == LISTEN and int(fields[1].rpartition(":")[2], 16) == port:
                inodes.add(fields[9])
    return inodes


def socket_holders(inodes: set[str]) -> set[int]:
    """The processes that hold one of these sockets open."""
    wanted = {f"socket:[{inode}]" for inode in inodes}
    return {int(fds.parent.name) for fds in Path("/proc").glob("[0-9]*/fd")
            if wanted & _links(fds)}


def _links(fds: Path) -> set[str]:
    """What a process's descriptors point to; those that close meanwhile, or a process
    gone or not ours to read, left out."""
    links = set()
    try:
        descriptors = list(fds.iterdir())
    except OSError:
        return links
    for descriptor in descriptors:
        try:
            links.add(os.readlink(descriptor))
        except OSError:
            continue
    return links


def parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rpartition(")")[2].split()[1])  # the fields after the command's name


def descends_from(pid: int, ancestor: int) -> bool:
    while pid and pid != ancestor:
        pid = parent_of(pid) or 0
    return pid == ancestor


def listened_on_by_descendant(port: int, ancestor: int) -> bool:
    """Whether a process of `ancestor`'s tree listens on `port`; sockets found to be another
    program's are remembered, so a long-running one costs one look."""
    sockets = listening_sockets(port) - _foreign
    if not sockets:
        return False
    if any(descends_from(pid, ancestor) for pid in socket_holders(sockets)):
        return True
    _foreign.update(sockets)
    return False
