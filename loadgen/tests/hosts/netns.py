"""The topology of an address plan, brought up and down with iproute2. Down never raises
for what is already gone: it runs after failures too."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tests.hosts.plan import LINK_PREFIX, AddressPlan, Link
from tests.hosts.shell import CommandFailed, in_netns, output, run

NETNS_DIR = Path("/var/run/netns")


def existing_namespaces() -> list[str]:
    """`ip netns list` names ("hl-srv (id: 0)" -> "hl-srv")."""
    return [line.split()[0] for line in output(["ip", "netns", "list"]).splitlines() if line]


def netns_dir_is_mounted() -> bool:
    target = os.path.realpath(NETNS_DIR)
    with open("/proc/self/mountinfo") as mounts:
        return any(line.split()[4] == target for line in mounts)


@dataclass(frozen=True)
class NetnsDirState:
    """/var/run/netns before the run: `ip netns add` creates it and, the first time, makes
    it a mount of itself; whoever caused either undoes it when done."""

    existed: bool
    mounted: bool


def netns_dir_state() -> NetnsDirState:
    return NetnsDirState(NETNS_DIR.is_dir(), NETNS_DIR.is_dir() and netns_dir_is_mounted())


def _ip(netns: str | None) -> list[str]:
    return ["ip", "-n", netns] if netns else ["ip"]


def _add_link(link: Link) -> None:
    run([*_ip(link.netns_a), "link", "add", link.name_a, "type", "veth",
         "peer", "name", link.name_b, "netns", link.netns_b])
    for netns, name, address in ((link.netns_a, link.name_a, link.address_a),
                                 (link.netns_b, link.name_b, link.address_b)):
        run([*_ip(netns), "addr", "add", f"{address}/{LINK_PREFIX}", "dev", name])
        run([*_ip(netns), "link", "set", name, "up"])


def bring_up(plan: AddressPlan) -> None:
    for host in plan.hosts:
        run(["ip", "netns", "add", host.netns])
        run(["ip", "-n", host.netns, "link", "set", "lo", "up"])
    for link in plan.links:
        _add_link(link)
    for route in plan.routes:
        run(["ip", "-n", route.netns, "route", "add", route.destination,
             "via", route.via, "dev", route.device])
    for host in plan.hosts:
        _strict_reverse_path_filter(host.netns)


def _strict_reverse_path_filter(netns: str) -> None:
    """A new namespace's rp_filter depends on the kernel's settings; strict everywhere, the
    test proves that the generators' packets pass the strictest filter a host may have
    (each comes in on the interface its source address is routed back through)."""
    run(in_netns(netns, ["sh", "-c", "echo 1 > /proc/sys/net/ipv4/conf/all/rp_filter"]))


def rp_filter(netns: str, interface: str) -> int:
    """The effective reverse-path filter of an interface: the stricter of `all` and its own
    (0 off, 1 strict, 2 loose; the kernel uses the maximum)."""
    values = [int(output(in_netns(netns, ["cat", f"/proc/sys/net/ipv4/conf/{name}/rp_filter"])))
              for name in ("all", interface)]
    return max(values)


def bring_down(plan: AddressPlan, before: NetnsDirState) -> list[str]:
    """Deletes the namespaces (their veths go with them) and any root-side veth still
    there; puts /var/run/netns back as it was when nothing else uses it. The problems
    met, as text (empty: all gone)."""
    problems = []
    present = set(existing_namespaces())
    for host in plan.hosts:
        if host.netns in present:
            problems += _try(["ip", "netns", "delete", host.netns])
    for name in plan.root_veths:
        if run(["ip", "link", "show", name], check=False).returncode == 0:
            problems += _try(["ip", "link", "delete", name])
    return problems + _restore_netns_dir(before)


def _restore_netns_dir(before: NetnsDirState) -> list[str]:
    if not NETNS_DIR.is_dir() or any(NETNS_DIR.iterdir()):
        return []
    problems = []
    if not before.mounted and netns_dir_is_mounted():
        problems += _try(["umount", str(NETNS_DIR)])
    if not before.existed and not problems:
        NETNS_DIR.rmdir()
    return problems


def _try(command: list[str]) -> list[str]:
    try:
        run(command)
        return []
    except CommandFailed as failure:
        return [str(failure)]
