"""The test hosts' pure parts (tests/hosts): the address plan, the safety decisions, the
rendered configs and commands, the peer parser; and the percentile rule the hosts test
checks the harness's merged p99 with. No root, no Docker."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import pytest

from tests.hosts.engines import EnginePaths, daemon_config, dockerd_command
from tests.hosts.peers import parse_established_peers
from tests.hosts.plan import SUBNET, address_plan
from tests.hosts.safety import Refused, owner_of_target, route_destinations, subnet_conflicts
from tests.hosts.sshd import (SshFiles, render_client_config, render_sshd_config,
                              render_ssh_wrapper)
from tests.hosts.test_multi_host import summed_histogram, wrk_percentile

SRV_ADDR = """1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever
2: to-root@if5    inet 10.231.0.2/30 scope global to-root\\       valid_lft forever
3: to-gen1@if3    inet 10.231.1.1/30 scope global to-gen1\\       valid_lft forever
2: to-root@if5    inet6 fe80::1/64 scope link \\       valid_lft forever preferred_lft forever
"""
GEN1_ADDR = """1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever
2: to-root@if6    inet 10.231.0.6/30 scope global to-root\\       valid_lft forever
"""
ROOT_ADDR = """1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever
4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\       valid_lft forever
5: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\       valid_lft forever
7: hlr-srv@if2    inet 10.231.0.1/30 scope global hlr-srv\\       valid_lft forever
"""
ROOT_ROUTES = """default via 192.0.2.1 dev eth0
172.17.0.0/16 dev docker0 proto kernel scope link src 172.17.0.1 linkdown
192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2
local 127.0.0.1 dev lo table local proto kernel scope host src 127.0.0.1
broadcast 192.0.2.255 dev eth0 table local proto kernel scope link src 192.0.2.2
"""


# -- the address plan ------------------------------------------------------------------


def test_the_plan_gives_each_namespace_a_root_link_and_each_generator_a_direct_one():
    plan = address_plan(2)
    assert [host.netns for host in plan.hosts] == ["hl-srv", "hl-gen1", "hl-gen2"]
    assert [host.address for host in plan.hosts] == ["10.231.0.2", "10.231.0.6", "10.231.0.10"]
    assert plan.target_address == "10.231.0.2"
    assert plan.root_veths == ("hlr-srv", "hlr-gen1", "hlr-gen2")
    assert plan.generator_sources == ("10.231.1.2", "10.231.1.6")
    assert [(r.netns, r.destination, r.via, r.device) for r in plan.routes] == [
        ("hl-gen1", "10.231.0.2/32", "10.231.1.1", "to-srv"),
        ("hl-gen2", "10.231.0.2/32", "10.231.1.5", "to-srv")]


@pytest.mark.parametrize("generators", [1, 2, 5, 60])
def test_every_planned_address_is_distinct_inside_the_subnet_and_every_name_fits(generators):
    plan = address_plan(generators)
    addresses = [a for link in plan.links for a in (link.address_a, link.address_b)]
    assert len(set(addresses)) == len(addresses)
    assert all(ipaddress.ip_address(a) in SUBNET for a in addresses)
    names = [n for link in plan.links for n in (link.name_a, link.name_b)]
    assert max(map(len, names)) <= 15  # the kernel's interface name limit
    assert len(plan.generators) == len(plan.generator_sources) == len(plan.routes) == generators


@pytest.mark.parametrize("generators", [0, 61])
def test_the_plan_refuses_generator_counts_its_subnets_cannot_hold(generators):
    with pytest.raises(ValueError):
        address_plan(generators)


# -- safety: the subnet is free, the target is ours ------------------------------------


@pytest.mark.parametrize("addr, routes, expected", [
    (ROOT_ADDR.replace("10.231.0.1/30", "10.9.0.1/30"), ROOT_ROUTES, []),
    (ROOT_ADDR, ROOT_ROUTES, ["address 10.231.0.1/30"]),
    ("", "10.0.0.0/8 via 192.0.2.1 dev eth0\n", ["route 10.0.0.0/8"]),
    ("", "10.231.7.9 dev tun0 scope link\n", ["route 10.231.7.9/32"]),
    ("", "unreachable 10.231.0.0/16 proto static\n", ["route 10.231.0.0/16"]),
    ("", "default via 10.231.0.1 dev eth0\n", []),  # the default route covers everything
    ("", "local 10.231.3.3 dev lo table local scope host\n", ["route 10.231.3.3/32"]),
], ids=["free", "address", "wider-route", "host-route", "unreachable", "default", "local"])
def test_anything_overlapping_the_subnet_is_a_conflict(addr, routes, expected):
    assert subnet_conflicts(SUBNET, addr, routes) == expected


def test_route_types_are_read_past_to_the_destination():
    assert route_destinations(ROOT_ROUTES) == [
        ipaddress.ip_network(n) for n in ("172.17.0.0/16", "192.0.2.0/24", "127.0.0.1/32",
                                          "192.0.2.255/32")]


OURS = {"hl-srv": SRV_ADDR, "hl-gen1": GEN1_ADDR}


@pytest.mark.parametrize("target, owner", [("10.231.0.2", "hl-srv"), ("10.231.1.1", "hl-srv"),
                                           ("10.231.0.6", "hl-gen1")])
def test_an_address_of_one_of_the_test_namespaces_is_its_target(target, owner):
    assert owner_of_target(target, SUBNET, ROOT_ADDR, OURS) == owner


@pytest.mark.parametrize("target, reason", [
    ("127.0.0.1", "outside the test's subnet"),
    ("172.17.0.1", "outside the test's subnet"),  # the Docker bridge
    ("192.0.2.2", "outside the test's subnet"),
    ("10.231.0.1", "belongs to the root namespace"),
    ("10.231.0.99", "held by 0 of the test's namespaces (none)"),
    ("example.org", "not an IPv4 address"),
    ("::1", "not an IPv4 address"),
])
def test_any_other_target_is_refused(target, reason):
    with pytest.raises(Refused, match=re.escape(reason)):
        owner_of_target(target, SUBNET, ROOT_ADDR, OURS)


def test_an_address_two_namespaces_hold_is_refused():
    with pytest.raises(Refused, match="held by 2"):
        owner_of_target("10.231.0.6", SUBNET, ROOT_ADDR, {**OURS, "hl-gen2": GEN1_ADDR})


# -- rendered configs and commands -----------------------------------------------------

FILES = SshFiles(Path("/run/httplab-hosts-x/ssh"))


def test_sshd_takes_only_the_test_key_for_root_on_one_address_and_aims_docker_at_its_engine():
    config = render_sshd_config(FILES, "10.231.0.2", "unix:///run/h/srv/docker.sock",
                                Path("/run/h/sshd.pid")).splitlines()
    for line in ["ListenAddress 10.231.0.2", "HostKey /run/httplab-hosts-x/ssh/host_key",
                 "AuthorizedKeysFile /run/httplab-hosts-x/ssh/authorized_keys",
                 "PermitRootLogin prohibit-password", "PasswordAuthentication no",
                 "PidFile /run/h/sshd.pid", "SetEnv DOCKER_HOST=unix:///run/h/srv/docker.sock"]:
        assert line in config


def test_the_client_config_names_the_key_and_trusts_only_the_test_hosts():
    config = render_client_config(FILES, ["10.231.0.2", "10.231.0.6"])
    assert config.splitlines()[0] == "Host 10.231.0.2 10.231.0.6"
    for option in ["IdentityFile /run/httplab-hosts-x/ssh/client_key", "BatchMode yes",
                   "StrictHostKeyChecking no", "UserKnownHostsFile /dev/null"]:
        assert f"  {option}" in config.splitlines()


def test_the_ssh_wrapper_runs_the_real_ssh_with_the_test_config():
    assert render_ssh_wrapper(FILES) == (
        '#!/bin/sh\nexec /usr/bin/ssh -F /run/httplab-hosts-x/ssh/ssh_config "$@"\n')


def test_dockerd_enters_only_the_network_namespace_and_owns_its_paths():
    paths = EnginePaths(Path("/run/h/srv"), Path("/var/tmp/h/srv"))
    command = dockerd_command("hl-srv", paths)
    assert command[:2] == ["nsenter", "--net=/var/run/netns/hl-srv"]
    text = " ".join(command)
    for part in ["--data-root /var/tmp/h/srv", "--exec-root /run/h/srv/exec",
                 "-H unix:///run/h/srv/docker.sock", "--config-file /run/h/srv/daemon.json",
                 "--bridge=none", "--iptables=false", "--ip-masq=false"]:
        assert part in text


@pytest.mark.parametrize("version, expected", [
    ("Docker version 20.10.24+dfsg1, build 5d6db84", {"deprecated-key-path": "/run/h/key.json"}),
    ("Docker version 28.2.2, build e6534b4", {}),
])
def test_an_engine_before_23_gets_its_own_id_key(version, expected):
    assert daemon_config(EnginePaths(Path("/run/h"), Path("/var/tmp/h")), version) == expected


# -- peers seen by the server ----------------------------------------------------------

SS = """0      0      10.231.0.2:8080   10.231.1.2:40112
0      0      [::ffff:10.231.0.2]:8080   [::ffff:10.231.1.6]:51000
0      0      10.231.0.2:22   10.231.0.1:43000
0      0      [::1]:8080   [::1]:43010
"""


@pytest.mark.parametrize("port, peers", [(8080, {"10.231.1.2", "10.231.1.6", "::1"}),
                                         (22, {"10.231.0.1"}), (9999, set())])
def test_established_peers_are_read_per_local_port_with_mapped_ipv4_unwrapped(port, peers):
    assert parse_established_peers(SS, port) == peers


# -- wrk's percentile rule, as the hosts test applies it -------------------------------


@pytest.mark.parametrize("histogram, percentile, value", [
    ([(100, 1)], 99, 100),
    ([(10, 98), (20, 1), (30, 1)], 99, 30),  # rank round(99 + 0.5) = 100, C rounds half up
    ([(10, 197), (20, 2), (30, 1)], 99, 20),  # rank round(198 + 0.5) = 199
    ([(10, 50), (20, 50)], 50, 20),  # rank 51, not the 50th value
    ([(30, 1), (10, 1), (20, 1)], 50, 20),  # unordered input: rank 2
    ([(5, 1000)], 99.9, 5),
])
def test_wrk_percentile_is_the_smallest_value_reaching_the_rank(histogram, percentile, value):
    assert wrk_percentile(histogram, percentile) == value


def test_summed_histograms_add_counts_per_value():
    assert summed_histogram([(10, 2), (20, 1)], [(20, 3), (5, 1)]) == [(5, 1), (10, 2), (20, 4)]
