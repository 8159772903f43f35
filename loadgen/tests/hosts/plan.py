"""The address plan of the test hosts (pure): which namespaces, which veth pairs join
them, which addresses and routes each gets, all inside one private subnet.

    root namespace ── hlr-srv  ── to-root ── hl-srv  (server engine; the target address)
                   ── hlr-gen1 ── to-root ── hl-gen1 (generator engine) ── to-srv ┐
                   ── hlr-gen2 ── to-root ── hl-gen2 (generator engine) ── to-srv ┤
                                            hl-srv: to-gen1, to-gen2 ─────────────┘

Each namespace's link to the root namespace is a /30 whose .1 is the root side: the
harness and SSH reach every host that way. Each generator also has a direct /30 to
hl-srv and a /32 route to the server's root-facing address over it, so both generators
aim at ONE target address with no forwarding or iptables in the root namespace (Linux
takes a packet for any local address on any interface), and the server sees each
generator by a different source address: its end of the direct link."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

SUBNET = ipaddress.ip_network("10.231.0.0/16")
ROOT_LINKS = ipaddress.ip_network("10.231.0.0/24")  # one /30 per namespace, to the root
DIRECT_LINKS = ipaddress.ip_network("10.231.1.0/24")  # one /30 per generator, to hl-srv
LINK_PREFIX = 30
SERVER_NETNS = "hl-srv"
NAME_PREFIX = "hl-"  # namespaces; root-side veths are "hlr-" + the namespace's short name
UPLINK = "to-root"  # every namespace's end of its link to the root namespace


@dataclass(frozen=True)
class Link:
    """A veth pair: end A in netns_a (None: the root namespace), end B in netns_b."""

    name_a: str
    netns_a: str | None
    address_a: str
    name_b: str
    netns_b: str
    address_b: str


@dataclass(frozen=True)
class Route:
    netns: str
    destination: str  # a /32
    via: str
    device: str


@dataclass(frozen=True)
class Host:
    """One test host: a namespace, and its address as the root namespace reaches it."""

    netns: str
    address: str

    @property
    def short_name(self) -> str:
        return self.netns[len(NAME_PREFIX):]


@dataclass(frozen=True)
class AddressPlan:
    server: Host
    generators: tuple[Host, ...]
    generator_sources: tuple[str, ...]  # each generator's address as the server sees it
    links: tuple[Link, ...]
    routes: tuple[Route, ...]

    @property
    def hosts(self) -> tuple[Host, ...]:
        return (self.server, *self.generators)

    @property
    def target_address(self) -> str:
        return self.server.address

    @property
    def root_veths(self) -> tuple[str, ...]:
        return tuple(link.name_a for link in self.links if link.netns_a is None)


def _pair(network: ipaddress.IPv4Network, index: int) -> tuple[str, str]:
    """The index-th /30 of a network: its .1 and .2 (A side, B side)."""
    subnet = list(network.subnets(new_prefix=LINK_PREFIX))[index]
    first, second = list(subnet.hosts())
    return str(first), str(second)


def address_plan(generator_count: int = 2) -> AddressPlan:
    if not 1 <= generator_count <= 60:
        raise ValueError(f"between 1 and 60 generators, not {generator_count}")
    names = [SERVER_NETNS] + [f"{NAME_PREFIX}gen{i}" for i in range(1, generator_count + 1)]
    hosts, links = [], []
    for index, netns in enumerate(names):
        root_side, netns_side = _pair(ROOT_LINKS, index)
        links.append(Link(f"hlr-{netns[len(NAME_PREFIX):]}", None, root_side,
                          UPLINK, netns, netns_side))
        hosts.append(Host(netns, netns_side))
    server, generators = hosts[0], tuple(hosts[1:])
    sources, routes = [], []
    for index, generator in enumerate(generators):
        server_side, generator_side = _pair(DIRECT_LINKS, index)
        links.append(Link(f"to-{generator.short_name}", SERVER_NETNS, server_side,
                          "to-srv", generator.netns, generator_side))
        routes.append(Route(generator.netns, f"{server.address}/32", server_side, "to-srv"))
        sources.append(generator_side)
    return AddressPlan(server, generators, tuple(sources), tuple(links), tuple(routes))
