from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from httplab.loadtools.h2load.command import (H2loadRequest, fairness_script_arguments, h2load_arguments,
                                    h2load_time_limit_s, reading_times)
from httplab.run_layout import H2LOAD_SUFFIX, SOCKETS_SUFFIX
from tests.conftest import TESTS_DIR

SCRIPT = TESTS_DIR.parent / "fairness.sh"
REQUEST = H2loadRequest(threads=2, connections=50, duration_s=3, url="http://127.0.0.1:8080/")


def test_h2load_arguments():
    assert h2load_arguments(REQUEST) == ["--h1", "-t2", "-c50", "-D3", "http://127.0.0.1:8080/"]


@pytest.mark.parametrize("duration_s, expected", [(10, (1.0, 9.0)), (3, (0.3, 2.7)), (0, (0, 0))])
def test_reading_times_at_a_tenth_and_nine_tenths(duration_s, expected):
    assert reading_times(duration_s) == pytest.approx(expected)


def test_time_limit_leaves_room_past_the_duration():
    assert h2load_time_limit_s(REQUEST) == 33


def test_fairness_script_arguments():
    assert fairness_script_arguments("raw/netty-t2-c50", REQUEST, 8080) == [
        "raw/netty-t2-c50", "0.3", "2.7", "8080", "--",
        "--h1", "-t2", "-c50", "-D3", "http://127.0.0.1:8080/"]


# fairness.sh itself, with a stand-in h2load on PATH (no load): it prints its arguments,
# sleeps, and exits with a code of its own. The real ss reads a port nothing uses.
FAKE_H2LOAD = """#!/bin/sh
if [ "$1" = --version ]; then echo "h2load stand-in/1.0"; echo second line; exit 0; fi
echo "arguments: $*"; echo "to stderr" >&2
sleep "$FAKE_SLEEP_S"
exit 3
"""
HEADER = re.compile(r"# httplab sockets at_s=(\d+\.\d{3}) port=9 tool=h2load stand-in/1\.0")
needs_ss = pytest.mark.skipif(shutil.which("ss") is None, reason="needs ss (iproute2)")


def run_script(tmp_path: Path, sleep_s: str, *arguments: str) -> subprocess.CompletedProcess:
    fake = tmp_path / "bin" / "h2load"
    fake.parent.mkdir()
    fake.write_text(FAKE_H2LOAD)
    fake.chmod(0o755)
    environment = dict(os.environ, PATH=f"{fake.parent}:{os.environ['PATH']}",
                       FAKE_SLEEP_S=sleep_s)
    return subprocess.run(["sh", str(SCRIPT), *arguments], env=environment, capture_output=True,
                          text=True, timeout=30)


@needs_ss
@pytest.mark.alone  # two readings within h2load's short run
def test_script_reads_twice_while_h2load_runs(tmp_path):
    stem = tmp_path / "run"
    done = run_script(tmp_path, "1", str(stem), "0.2", "0.6", "9", "--", "-c2", "http://x/")
    assert done.returncode == 3
    assert (tmp_path / f"run{H2LOAD_SUFFIX}").read_text() == "arguments: -c2 http://x/\nto stderr\n"
    lines = (tmp_path / f"run{SOCKETS_SUFFIX}").read_text().splitlines()
    times = [float(HEADER.fullmatch(line).group(1)) for line in lines]
    assert len(times) == 2
    assert 0.2 <= times[0] < 0.5 and 0.6 <= times[1] < 0.9


@needs_ss
def test_script_takes_no_reading_after_h2load_ended(tmp_path):
    stem = tmp_path / "run"
    sockets = tmp_path / f"run{SOCKETS_SUFFIX}"
    sockets.write_text("an older run's readings\n")
    done = run_script(tmp_path, "0", str(stem), "0.3", "0.4", "9", "--", "http://x/")
    assert done.returncode == 3
    assert sockets.read_text() == ""


@pytest.mark.parametrize("arguments", [[], ["stem", "1", "2", "80", "h2load-argument"]])
def test_script_usage(tmp_path, arguments):
    done = run_script(tmp_path, "0", *arguments)
    assert done.returncode == 2 and done.stderr.startswith("usage:")
