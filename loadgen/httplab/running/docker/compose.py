"""Docker Compose command lines, for v2 (`docker compose`) and v1 (`docker-compose`). Pure,
but for detect_compose, which asks the machine which one it has, and dockerfile_for, which
looks at a server's folder.

docker-compose.yml has one `server` service for every server: the environment names the
server (HTTPLAB_SERVER) and its Dockerfile (HTTPLAB_DOCKERFILE), so the command lines
below are the same for all of them and the environment is passed beside them."""

from __future__ import annotations

import subprocess
from pathlib import Path

PROJECT = "httplab"
COMPOSE_FILE = "docker-compose.yml"
# Added to COMPOSE_FILE for an io_uring cell only, when the engine's own seccomp profile
# blocks io_uring: the server runs under the profile whose absolute path SECCOMP_VARIABLE
# gives (Compose v1 reads a relative one from its working directory, v2 from the project's).
SECCOMP_FILE, SECCOMP_VARIABLE = "docker-compose.seccomp.yml", "HTTPLAB_SECCOMP"
SERVER_SERVICE = "server"
WRK_SERVICE = "wrk"
# The database runs as a project of its own, so the server's `down` leaves it up.
DATABASE_PROJECT, DATABASE_SERVICE = "httplab-db", "db"
DATABASE_IMAGE = "httplab/postgres:latest"  # the db service's image in docker-compose.yml
# Compose interpolates the whole file, the server's image name too, even for the database's
# commands: any name does, as no server starts.
NO_SERVER = "none"
DEFAULT_TAG = "latest"  # the server's image tag when HTTPLAB_IMAGE_TAG is unset
DOCKERFILE = "Dockerfile"  # servers/Dockerfile for every Maven server, or a folder's own
JAR_IN_IMAGE = "/app/server.jar"  # where servers/Dockerfile puts a Maven server's jar
WRK_SCRIPT_IN_IMAGE = "/opt/httplab/done.lua"
WRK_IMAGE = "httplab/wrk:latest"  # the wrk service's image in docker-compose.yml
WRK_OUT_DIR_IN_IMAGE = "/out"
FAIRNESS_SCRIPT_IN_IMAGE = "/opt/httplab/fairness.sh"  # loadgen/fairness.sh, in the wrk image
OHA_IN_IMAGE = "/usr/local/bin/oha"  # built in loadgen/Dockerfile's oha stage
WRK_IN_IMAGE = "wrk"  # on the image's PATH (and its ENTRYPOINT)
H2LOAD_IN_IMAGE = "h2load"  # on the image's PATH: Debian's nghttp2-client (loadgen/Dockerfile)
# loadgen/cpu-times.sh, in the wrk image: runs a load tool, then writes the tool's CPU time
# into the mount (its usage: CPU_FILE TOOL [ARGUMENTS...]).
CPU_TIMES_IN_IMAGE = "/opt/httplab/cpu-times.sh"
# The open-file limit docker-compose.yml pins for the server and wrk (`ulimits: nofile`),
# and the harness gives the load generators it starts itself.
CONTAINER_NOFILE = 16384
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


def server_image(server: str, tag: str = DEFAULT_TAG) -> str:
    """The server service's image in docker-compose.yml, for the server HTTPLAB_SERVER names
    and the tag HTTPLAB_IMAGE_TAG gives (base_images.image_tag: one per JDK)."""
    return f"httplab/{server}:{tag}"


def image_environment(tag: str, jdk: int | None) -> dict[str, str]:
    """The variables docker-compose.yml reads to tag the server's image and to give its build
    the JDK (the JDK build arg of servers/Dockerfile; empty for a server that runs no JVM)."""
    return {"HTTPLAB_IMAGE_TAG": tag, "HTTPLAB_JDK": "" if jdk is None else str(jdk)}


def dockerfile_for(servers_dir: Path, server: str) -> Path:
    """servers/<name>/Dockerfile when the folder brings its own, else the shared one."""
    own = servers_dir / server / DOCKERFILE
    return own if own.is_file() else servers_dir / DOCKERFILE


def server_environment(server: str, dockerfile: str = DOCKERFILE) -> dict[str, str]:
    """The variables docker-compose.yml reads to pick the server: its folder name, and its
    Dockerfile relative to the build context servers/. Every Compose command needs them,
    wrk's too, since Compose interpolates the whole file."""
    return {"HTTPLAB_SERVER": server, "HTTPLAB_DOCKERFILE": dockerfile}


def base_command(compose: list[str], repo: Path, *profiles: str,
                 project: str = PROJECT, overrides: tuple[str, ...] = ()) -> list[str]:
    files = [argument for name in (COMPOSE_FILE, *overrides)
             for argument in ("-f", str(repo / name))]
    command = [*compose, "-p", project, *files, "--project-directory", str(repo)]
    for profile in profiles:
        command += ["--profile", profile]
    return command


def _profiles_of(service: str) -> tuple[str, ...]:
    # wrk and db sit behind their own profiles so that the server's `up` never starts
    # them; the server has none.
    return (service,) if service in (WRK_SERVICE, DATABASE_SERVICE) else ()


def build_command(compose: list[str], repo: Path, service: str) -> list[str]:
    project = DATABASE_PROJECT if service == DATABASE_SERVICE else PROJECT
    return [*base_command(compose, repo, *_profiles_of(service), project=project),
            "build", service]


def _database_command(compose: list[str], repo: Path) -> list[str]:
    return base_command(compose, repo, DATABASE_SERVICE, project=DATABASE_PROJECT)


def database_up_command(compose: list[str], repo: Path) -> list[str]:
    """A fresh container each time: the previous one is removed by down (-v: with the
    official image's anonymous data volume)."""
    return [*_database_command(compose, repo), "up", "-d", "--no-build", "--force-recreate",
            DATABASE_SERVICE]


def database_down_command(compose: list[str], repo: Path) -> list[str]:
    return [*_database_command(compose, repo), "down", "-v", "--remove-orphans", "-t", "10"]


def database_container_id_command(compose: list[str], repo: Path) -> list[str]:
    return [*_database_command(compose, repo), "ps", "-a", "-q", DATABASE_SERVICE]


def up_command(compose: list[str], repo: Path, seccomp: bool = False,
               project: str = PROJECT) -> list[str]:
    """seccomp: with SECCOMP_FILE, whose profile seccomp_environment names. project: another
    Compose project's server, up beside this one's (make pairing-study's two sides)."""
    # --no-build: images are built in prepare(), so a start never hides a build.
    overrides = (SECCOMP_FILE,) if seccomp else ()
    return [*base_command(compose, repo, project=project, overrides=overrides), "up", "-d",
            "--no-build", SERVER_SERVICE]


def seccomp_environment(profile: Path | None) -> dict[str, str]:
    """The variable SECCOMP_FILE reads: the profile's absolute path (none: no variable)."""
    return {SECCOMP_VARIABLE: str(profile.resolve())} if profile else {}


def down_command(compose: list[str], repo: Path, project: str = PROJECT) -> list[str]:
    return [*base_command(compose, repo, project=project), "down", "--remove-orphans", "-t",
            "10"]


def container_id_command(compose: list[str], repo: Path, project: str = PROJECT) -> list[str]:
    return [*base_command(compose, repo, project=project), "ps", "-a", "-q", SERVER_SERVICE]


def wrk_run_command(compose: list[str], repo: Path, container_name: str, json_name: str,
                    cpu_times_name: str, wrk_args: list[str]) -> list[str]:
    """`run --rm -T wrk ...`, named so an interrupted run can be removed for sure."""
    return _run_with_cpu_times(compose, repo, container_name, cpu_times_name,
                               [WRK_IN_IMAGE, *wrk_args],
                               ["-e", f"HTTPLAB_WRK_JSON={WRK_OUT_DIR_IN_IMAGE}/{json_name}"])


def fairness_run_command(compose: list[str], repo: Path, container_name: str,
                         cpu_times_name: str, script_args: list[str]) -> list[str]:
    """h2load through fairness.sh in the wrk service's container, named like wrk's."""
    return _run_with_cpu_times(compose, repo, container_name, cpu_times_name,
                               [FAIRNESS_SCRIPT_IN_IMAGE, *script_args])


def h2load_run_command(compose: list[str], repo: Path, container_name: str,
                       cpu_times_name: str, h2load_args: list[str]) -> list[str]:
    """h2load as make bench's load tool (HTTP/2) in the wrk service's container, named like
    wrk's; its summary on stdout, its log of requests in the mount."""
    return _run_with_cpu_times(compose, repo, container_name, cpu_times_name,
                               [H2LOAD_IN_IMAGE, *h2load_args])


def oha_run_command(compose: list[str], repo: Path, container_name: str, cpu_times_name: str,
                    oha_args: list[str], ca_file: str | None = None) -> list[str]:
    """oha in the wrk service's container, named like wrk's; its JSON on stdout. The CA
    file it verifies with (https) is mounted read-only at the same path, so its arguments
    name it as this host does."""
    mount = [] if ca_file is None else ["-v", f"{ca_file}:{ca_file}:ro"]
    return _run_with_cpu_times(compose, repo, container_name, cpu_times_name,
                               [OHA_IN_IMAGE, *oha_args], mount)


def _run_with_cpu_times(compose: list[str], repo: Path, container_name: str,
                        cpu_times_name: str, tool_command: list[str],
                        options: list[str] | None = None) -> list[str]:
    """A load tool in the wrk service's container, run by cpu-times.sh, which writes the
    tool's CPU time to cpu_times_name in the mount (the run's raw folder) once it exited."""
    return [*base_command(compose, repo, WRK_SERVICE), "run", "--rm", "-T",
            "--name", container_name, *(options or []), "--entrypoint", CPU_TIMES_IN_IMAGE,
            WRK_SERVICE, f"{WRK_OUT_DIR_IN_IMAGE}/{cpu_times_name}", *tool_command]
