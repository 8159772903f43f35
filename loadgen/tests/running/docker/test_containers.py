"""What Docker says of a container, read once for the backend and the database: still
running, or stopped with which exit code; against a stand-in `docker` that prints a state."""

from __future__ import annotations

import os
import stat

import pytest

from httplab.running.backend_error import BackendError
from httplab.running.docker.containers import STATE_TEMPLATE, run_docker, stopped_exit_code


def stand_in_docker(tmp_path, printed: str) -> dict[str, str]:
    """An environment whose `docker` prints `printed` and its arguments to a file."""
    script = tmp_path / "docker"
    script.write_text(f'#!/bin/sh\necho "$@" > "{tmp_path}/arguments"\nprintf "%s" "{printed}"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}


@pytest.mark.parametrize("printed, code", [
    ("true 0\n", None),
    ("false 137\n", "137"),
    ("false 0\n", "0"),
    ("", "unknown"),  # Docker no longer knows the container
])
def test_a_stopped_container_says_its_exit_code(tmp_path, printed, code):
    assert stopped_exit_code("abc123", stand_in_docker(tmp_path, printed)) == code
    assert (tmp_path / "arguments").read_text().split() == \
        ["inspect", "-f", *STATE_TEMPLATE.split(), "abc123"]


def test_a_command_that_cannot_run_raises_the_callers_error(tmp_path):
    class Refused(Exception):
        pass

    with pytest.raises(Refused, match="cannot run"):
        run_docker([str(tmp_path / "missing")], error=Refused)
    with pytest.raises(BackendError, match="cannot run"):
        run_docker([str(tmp_path / "missing")])
