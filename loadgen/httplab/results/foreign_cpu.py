"""Foreign CPU: what kept the host busy during a measured run other than the server, the
load tool and the database: the host's busy cores (/proc/stat around the run) less each of
theirs (each sampled over the same run). Another process, another tenant, the lab itself
(its stall meter costs under 0.01 core). Pure.

Unknown where a figure is missing, and unless the load tool's CPU was read from its own
process (loadgen_source): where it was estimated as the host's busy cores less the
server's (a run whose tool's CPU could not be read, and Docker runs made before the lab
read it in the tool's container), the rest of the host is counted as the load tool's
already. The sampling
windows differ by a few milliseconds, so a small negative difference reads as 0."""

from __future__ import annotations

from httplab.model import LOADGEN_HOST_LESS_SERVER, Cell, ResourceUsage
from httplab.results.stats import median_of_known


def foreign_cores(usage: ResourceUsage | None) -> float | None:
    """The host's busy cores that neither the server, the load tool nor the database used."""
    if usage is None or usage.loadgen_source in (None, LOADGEN_HOST_LESS_SERVER):
        return None
    known = (usage.host_busy_cores, usage.cpu_cores, usage.loadgen_cores)
    if any(value is None for value in known):
        return None
    database = usage.database
    database_cores = 0.0 if database is None else database.cpu_cores
    if database_cores is None:
        return None
    host_busy, server, load_tool = known
    return max(host_busy - server - load_tool - database_cores, 0.0)


def cell_foreign_cores(cell: Cell) -> float | None:
    """The median over the cell's runs of each run's foreign CPU."""
    return median_of_known(foreign_cores(usage) for usage in cell.resources)
