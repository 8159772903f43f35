"""The two checks that keep the test's load on the test's own addresses: before anything
is set up, nothing on this host may already use the test's subnet; before any load, the
target must be an address that one of the test's own namespaces holds. The decisions are
pure (they read `ip -o addr` and `ip route` text); the readers below feed them."""

from __future__ import annotations

import ipaddress

from tests.hosts.shell import output

# Route types that `ip route show table all` may print before the destination.
_ROUTE_TYPES = {"unicast", "local", "broadcast", "multicast", "anycast", "unreachable",
                "blackhole", "prohibit", "throw", "nat"}


class Refused(RuntimeError):
    """The test will not go on: what it would touch is not (only) its own."""


def addresses_in(ip_o_addr: str) -> list[ipaddress.IPv4Interface]:
    """Every IPv4 address (with its prefix) in `ip -o addr` output."""
    found = []
    for line in ip_o_addr.splitlines():
        fields = line.split()
        if "inet" in fields:
            found.append(ipaddress.IPv4Interface(fields[fields.index("inet") + 1]))
    return found


def route_destinations(ip_route: str) -> list[ipaddress.IPv4Network]:
    """The destinations in `ip -4 route show table all` output, the default routes left out
    (they cover every address and say nothing about who uses the subnet)."""
    found = []
    for line in ip_route.splitlines():
        fields = [field for field in line.split() if field not in _ROUTE_TYPES][:1]
        if fields and fields[0] != "default":
            found.append(ipaddress.IPv4Network(fields[0], strict=False))
    return found


def subnet_conflicts(subnet: ipaddress.IPv4Network, ip_o_addr: str, ip_route: str) -> list[str]:
    """What on the host already overlaps `subnet`: addresses and routes, as text."""
    conflicts = [f"address {address}" for address in addresses_in(ip_o_addr)
                 if address.network.overlaps(subnet)]
    conflicts += [f"route {network}" for network in route_destinations(ip_route)
                  if network.overlaps(subnet)]
    return conflicts


def owner_of_target(target: str, subnet: ipaddress.IPv4Network, root_addr: str,
                    addr_by_netns: dict[str, str]) -> str:
    """The one namespace of the test that holds `target`, read from each namespace's
    `ip -o addr`; Refused when the target is not an IPv4 address of the test's subnet, is
    held by the root namespace, or by none (or several) of the test's namespaces."""
    try:
        address = ipaddress.IPv4Address(target)
    except ValueError as error:
        raise Refused(f"target {target!r} is not an IPv4 address") from error
    if address not in subnet:
        raise Refused(f"target {address} is outside the test's subnet {subnet}")
    if any(held.ip == address for held in addresses_in(root_addr)):
        raise Refused(f"target {address} belongs to the root namespace, not to the test's")
    owners = [netns for netns, text in addr_by_netns.items()
              if any(held.ip == address for held in addresses_in(text))]
    if len(owners) != 1:
        raise Refused(f"target {address} is held by {len(owners)} of the test's namespaces "
                      f"({', '.join(owners) or 'none'}); it must be exactly one")
    return owners[0]


def check_subnet_is_free(subnet: ipaddress.IPv4Network) -> None:
    conflicts = subnet_conflicts(subnet, output(["ip", "-o", "addr"]),
                                 output(["ip", "-4", "route", "show", "table", "all"]))
    if conflicts:
        raise Refused(f"this host already uses the test's subnet {subnet}: "
                      f"{'; '.join(conflicts)}")


def check_target_is_ours(target: str, subnet: ipaddress.IPv4Network,
                         namespaces: list[str]) -> str:
    """Reads back every namespace's addresses and decides; the owning namespace's name."""
    return owner_of_target(target, subnet, output(["ip", "-o", "addr"]),
                           {netns: output(["ip", "-n", netns, "-o", "addr"])
                            for netns in namespaces})
