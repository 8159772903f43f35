"""Which CPUs of this machine the stall meter watches, and what runs on each: every CPU the
server or the load tool may run on here, one meter each. A side pinned by SERVER_CPUS or
LOADGEN_CPUS may run on those CPUs only; an unpinned one on any CPU the lab may use; a side
on another machine (SERVER_HOST, LOADGEN_HOSTS) on none of this one's. Pure."""

from __future__ import annotations

from httplab.running.plan import cpuset_members

SERVER = "server"
LOAD_TOOL = "load tool"


def side_cpus(cpuset: str | None, here: bool, usable: frozenset[int]) -> frozenset[int]:
    """The CPUs of this machine one side may run on."""
    if not here:
        return frozenset()
    return frozenset(cpuset_members(cpuset)) if cpuset else usable


def cpu_roles(server: frozenset[int], load_tool: frozenset[int],
              usable: frozenset[int]) -> dict[int, str]:
    """Each CPU to meter and what may run there ("server", "load tool", "server and load
    tool"), in CPU order; every usable CPU, with no role, when neither side runs here."""
    roles = {cpu: " and ".join(name for name, cpus in ((SERVER, server), (LOAD_TOOL, load_tool))
                               if cpu in cpus)
             for cpu in sorted(server | load_tool)}
    return roles or {cpu: "" for cpu in sorted(usable)}


def meter_arguments(roles: dict[int, str]) -> list[str]:
    """The meter's --cpu N=role for each CPU."""
    return [argument for cpu, role in roles.items() for argument in ("--cpu", f"{cpu}={role}")]
