from __future__ import annotations

import pytest

from httplab.loadtools.h2load.sockets import SocketReading, connection_deltas, parse_sockets
from tests.conftest import FIXTURES

H2LOAD_FIXTURES = FIXTURES / "h2load"
TOOL = "h2load nghttp2/1.52.0"


def captured(name: str):
    return parse_sockets((H2LOAD_FIXTURES / f"{name}.sockets.txt").read_text(), name)


# (at_s, port, established sockets) of each reading, copied by hand from the fixtures.
CAPTURED_READINGS = {
    "nginx-c50": [(0.307, 18081, 50), (2.712, 18081, 50)],
    "nginx-reopen-c50": [(0.309, 18082, 50), (2.717, 18082, 50)],
    "stalled-c50": [(0.310, 18083, 50), (2.706, 18083, 0)],
    "refused-c50": [(0.305, 18099, 0), (2.704, 18099, 0)],
}


@pytest.mark.parametrize("name", sorted(CAPTURED_READINGS))
def test_reads_captured_readings(name):
    readings = captured(name)
    assert [(r.at_s, r.port, len(r.bytes_acked)) for r in readings] == CAPTURED_READINGS[name]
    assert {r.tool for r in readings} == {TOOL}


def test_reads_each_sockets_bytes_acked():
    first = captured("nginx-c50")[0]
    # the file's first socket: "159  0  127.0.0.1:59032 127.0.0.1:18081", bytes_acked:43321
    assert first.bytes_acked["127.0.0.1:59032"] == 43321
    assert all(value > 0 for value in first.bytes_acked.values())


# (name, connections, expected deltas: how many, smallest, largest, reopened), by hand from
# the fixtures; every request of these runs is 76 bytes, so each delta is a multiple of 76.
CAPTURED_DELTAS = [
    ("nginx-c50", 50, (50, 240920, 381596, 0)),
    ("nginx-reopen-c50", 50, (25, 274284, 278160, 25)),
    ("flaky-500-c50", 50, (50, 106172, 107920, 0)),
    ("stalled-c50", 50, (50, 0, 0, 0)),  # no connection left at the second reading
    ("refused-c50", 50, (50, 0, 0, 0)),  # never connected
]


@pytest.mark.parametrize("name, connections, expected", CAPTURED_DELTAS)
def test_deltas_of_captured_runs(name, connections, expected):
    deltas, reopened = connection_deltas(captured(name), connections)
    assert (len(deltas), deltas[0], deltas[-1], reopened) == expected
    assert list(deltas) == sorted(deltas)
    assert all(delta % 76 == 0 for delta in deltas)


# Hand-written readings, for the shapes of ss output the captures do not show.
HAND_WRITTEN = """\
# httplab sockets at_s=0.500 port=8080 tool=h2load nghttp2/1.52.0
0      0      127.0.0.1:40001 127.0.0.1:8080
\t cubic wscale:7,7 rto:204 rtt:0.05/0.02 bytes_sent:1000 bytes_acked:1001 bytes_received:2000
0      76     [::1]:40002 [::1]:8080
\t cubic wscale:7,7 rto:204 rtt:0.05/0.02 bytes_sent:76
0      0      127.0.0.1:40003 127.0.0.1:8080 cubic bytes_acked:51

# httplab sockets at_s=9.000 port=8080 tool=
"""


def test_reads_hand_written_readings():
    first, second = parse_sockets(HAND_WRITTEN, "hand-written")
    assert first == SocketReading(0.5, 8080, TOOL, {
        "127.0.0.1:40001": 1001,
        "[::1]:40002": 0,  # has sent bytes, none acknowledged yet
        "127.0.0.1:40003": 51,  # details on the socket's own line (ss -O)
    })
    assert second == SocketReading(9.0, 8080, None, {})


def test_no_readings_in_an_empty_file():
    assert parse_sockets("", "empty") == ()


HEADER = "# httplab sockets at_s=1.000 port=80 tool=h2load"
SOCKET = "0      0      127.0.0.1:40001 127.0.0.1:80"


@pytest.mark.parametrize("text, message", [
    (SOCKET, r"^bad:1: a line before any '# httplab sockets' header"),
    ("# httplab sockets at_s=soon port=80 tool=h2load",
     r"^bad:1: not a '# httplab sockets' header"),
    (f"{HEADER}\n\t bytes_acked:5", r"^bad:2: socket details without a socket line"),
    (f"{HEADER}\nState Recv-Q Send-Q", r"^bad:2: not an ss socket line"),
    (f"{HEADER}\n0 0 127.0.0.1:40001", r"^bad:2: not an ss socket line"),
    (f"{HEADER}\n{SOCKET}\n{SOCKET}", r"^bad:3: 127.0.0.1:40001 twice in one reading"),
])
def test_refuses_malformed_readings(text, message):
    with pytest.raises(ValueError, match=message):
        parse_sockets(text, "bad")


def reading(**bytes_acked: int) -> SocketReading:
    return SocketReading(0.0, 80, None, bytes_acked)


@pytest.mark.parametrize("first, last, connections, expected", [
    pytest.param(dict(a=10, b=10), dict(a=30, b=50), 2, ((20, 40), 0), id="all in both"),
    pytest.param(dict(a=10), dict(a=30), 3, ((0, 0, 20), 0), id="two never connected"),
    pytest.param(dict(a=10, b=10), dict(a=30), 2, ((0, 20), 0), id="closed, not replaced"),
    pytest.param(dict(a=10, b=10), dict(a=30, c=5), 2, ((20,), 1), id="reopened"),
    pytest.param(dict(a=10, b=90), dict(a=30, b=5), 2, ((20,), 1), id="port reused"),
    pytest.param(dict(a=10), dict(a=30, c=5, d=5), 2, ((20,), 1), id="reopened past clients"),
    pytest.param(dict(a=1, b=1, c=1), dict(a=2, b=3, c=4), 2, ((1, 2, 3), 0),
                 id="a stranger's socket kept"),
    pytest.param({}, {}, 2, ((0, 0), 0), id="nothing established"),
])
def test_connection_deltas(first, last, connections, expected):
    assert connection_deltas((reading(**first), reading(**last)), connections) == expected


def test_deltas_span_the_first_and_last_readings():
    readings = (reading(a=10), reading(a=15), reading(a=40))
    assert connection_deltas(readings, 1) == ((30,), 0)


@pytest.mark.parametrize("count", [0, 1])
def test_deltas_need_two_readings(count):
    with pytest.raises(ValueError, match="two socket readings"):
        connection_deltas((reading(a=1),) * count, 1)
