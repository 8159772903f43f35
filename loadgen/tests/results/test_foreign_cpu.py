"""Foreign CPU: the host's busy cores less the server's, the load tool's and the database's,
unknown where a figure is missing or where the load tool's was not read from its process."""

from __future__ import annotations

import pytest

from httplab.model import (LOADGEN_HOST_LESS_SERVER, Cell, CellStatus, DatabaseUsage,
                           ResourceUsage)
from httplab.results.foreign_cpu import cell_foreign_cores, foreign_cores


def usage(host=1.9, server=0.6, tool=0.3, database=None, source="wrk process"):
    return ResourceUsage(cpu_cores=server, loadgen_cores=tool, host_busy_cores=host,
                         loadgen_source=source, database=database)


@pytest.mark.parametrize("figures, expected", [
    (usage(), 1.0),  # a busy loop's core beside the server and wrk
    (usage(host=0.95), 0.05),
    (usage(database=DatabaseUsage(cpu_cores=0.5)), 0.5),
    (usage(host=0.85), 0.0),  # windows a few ms apart: a small negative reads as 0
    (usage(host=None), None),
    (usage(server=None), None),
    (usage(tool=None), None),
    (usage(database=DatabaseUsage(cpu_cores=None)), None),
    (usage(source=LOADGEN_HOST_LESS_SERVER), None),  # the rest of the host counted as wrk's
    (usage(source=None), None),  # where the load tool's figure came from is unknown
    (None, None),
])
def test_foreign_cpu_from_figures(figures, expected):
    assert foreign_cores(figures) == (None if expected is None else pytest.approx(expected))


def test_a_cell_shows_the_median_over_its_runs():
    cell = Cell("netty", 2, 20, CellStatus.OK,
                resources=(usage(host=1.0), usage(host=1.9), usage(host=1.2), usage(host=None)))
    assert cell_foreign_cores(cell) == pytest.approx(0.3)
