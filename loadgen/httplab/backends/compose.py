"""Docker Compose command lines, for v2 (`docker compose`) and v1 (`docker-compose`). Pure,
but for detect_compose, which asks the machine which one it has."""

from __future__ import annotations

import subprocess
from pathlib import Path

PROJECT = "httplab"
COMPOSE_FILE = "docker-compose.yml"
WRK_SERVICE = "wrk"
WRK_SCRIPT_IN_IMAGE = "/opt/httplab/done.lua"
WRK_OUT_DIR_IN_IMAGE = "/out"
CANDIDATES = (("docker", "compose"), ("docker-compose",))


def detect_compose(preferred: str | None = None) -> list[str] | None:
    """The first Compose that answers `version`: v2 first, as users mostly have it."""
    candidates = [tuple(preferred.split())] if preferred else CANDIDATES
    for candidate in candidates:
        try:
            completed = subprocess.run([*candidate, "version"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if completed.returncode == 0:
            return list(candidate)
    return None


def base_command(compose: list[str], repo: Path, *profiles: str) -> list[str]:
    command = [*compose, "-p", PROJECT, "-f", str(repo / COMPOSE_FILE),
               "--project-directory", str(repo)]
    for profile in profiles:
        command += ["--profile", profile]
    return command


def build_command(compose: list[str], repo: Path, services: list[str]) -> list[str]:
    return [*base_command(compose, repo, *services), "build", *services]


def up_command(compose: list[str], repo: Path, service: str) -> list[str]:
    # --no-build: images are built in prepare(), so a start never hides a build.
    return [*base_command(compose, repo, service), "up", "-d", "--no-build", service]


def down_command(compose: list[str], repo: Path, service: str) -> list[str]:
    return [*base_command(compose, repo, service), "down", "--remove-orphans", "-t", "10"]


def container_id_command(compose: list[str], repo: Path, service: str) -> list[str]:
    return [*base_command(compose, repo, service), "ps", "-a", "-q", service]


def wrk_run_command(compose: list[str], repo: Path, container_name: str, json_name: str,
                    wrk_args: list[str]) -> list[str]:
    """`run --rm -T wrk ...`, named so an interrupted run can be removed for sure."""
    return [*base_command(compose, repo, WRK_SERVICE), "run", "--rm", "-T",
            "--name", container_name,
            "-e", f"HTTPLAB_WRK_JSON={WRK_OUT_DIR_IN_IMAGE}/{json_name}",
            WRK_SERVICE, *wrk_args]
