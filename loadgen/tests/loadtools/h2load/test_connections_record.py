"""The socket readings of a fairness run reduced to each connection's bytes and read back:
the same fairness run as from the readings themselves (the form committed runs kept)."""

from __future__ import annotations

import json

import pytest

from httplab.loadtools.h2load.connections_record import (connections_from_readings,
                                                         connections_from_record,
                                                         reduced_readings)
from httplab.loadtools.h2load.reading import fairness_run, read_fairness_run
from tests.conftest import FIXTURES

H2LOAD = FIXTURES / "h2load"


@pytest.mark.parametrize("name", ["nginx-c50", "nginx-reopen-c50", "flaky-500-c50",
                                  "refused-c50", "stalled-c50"])
def test_the_record_gives_the_fairness_run_the_readings_give(name):
    h2load = (H2LOAD / f"{name}.h2load.txt").read_text()
    readings = (H2LOAD / f"{name}.sockets.txt").read_text()
    record = json.loads(json.dumps(reduced_readings(readings, 50, "s")))
    from_record = fairness_run(h2load, connections_from_record(record, "r"), 50, "h")
    assert from_record == read_fairness_run(h2load, readings, 50, "h", "s")


def test_the_record_holds_each_connections_bytes_in_less_room_than_the_readings():
    readings = (H2LOAD / "nginx-c50.sockets.txt").read_text()
    counted = connections_from_readings(readings, 50, "s")
    assert len(json.dumps(reduced_readings(readings, 50, "s"))) < len(readings) / 4
    assert len(counted.connection_bytes) == 50 and counted.from_s < counted.to_s
    assert list(counted.connection_bytes) == sorted(counted.connection_bytes)


def test_one_reading_keeps_no_connection_bytes():
    first = (H2LOAD / "nginx-c50.sockets.txt").read_text().split("\n# httplab")[0]
    counted = connections_from_readings(first, 50, "s")
    assert counted.connection_bytes is None and counted.tool is not None


@pytest.mark.parametrize("record", [{}, {"format": 2}, {"format": 1},
                                    {"format": 1, "tool": None, "connection_bytes": [1]}])
def test_what_is_not_a_record_is_refused(record):
    with pytest.raises(ValueError, match="^r: "):
        connections_from_record(record, "r")
