"""Docker checks shared by the tests that need an engine. In CI (CI=true) a missing engine
fails those tests; elsewhere they are skipped, saying why."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.running.base_images import server_image

IN_CI = os.environ.get("CI") == "true"


def engine_problem() -> str | None:
    if shutil.which("docker") is None:
        return "docker is not installed"
    if subprocess.run(["docker", "info"], capture_output=True).returncode != 0:
        return "the Docker engine is not answering"
    return None


def require(problem: str | None) -> None:
    if problem and IN_CI:
        pytest.fail(f"CI needs Docker for this test: {problem}")
    if problem:
        pytest.skip(problem)


def first_present_image(*candidates: str) -> str | None:
    for image in candidates:
        if subprocess.run(["docker", "image", "inspect", image], capture_output=True).returncode == 0:
            return image
    return None


def default_server_image(name: str) -> str:
    """The image the harness builds for the server on the default JDK (httplab/netty:jdk25)."""
    return server_image(next(m for m in discover(servers_dir(DEFAULT_REPO)) if m.name == name))
