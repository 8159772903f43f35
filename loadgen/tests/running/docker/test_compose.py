"""The Compose command lines and base-image choice: pure parts of the docker backend."""

from pathlib import Path

import pytest

from httplab.running.docker import compose
from httplab.running.base_images import BASE_IMAGES_ENV, local_build_args, parse_env_file

REPO = Path("/lab")
V2, V1 = ["docker", "compose"], ["docker-compose"]
PREFIX = ["-p", "httplab", "-f", "/lab/docker-compose.yml", "--project-directory", "/lab"]


@pytest.mark.parametrize("tool", [V2, V1])
def test_server_lifecycle_commands_name_the_one_server_service(tool):
    assert compose.up_command(tool, REPO) == [*tool, *PREFIX, "up", "-d", "--no-build", "server"]
    assert compose.down_command(tool, REPO) == \
        [*tool, *PREFIX, "down", "--remove-orphans", "-t", "10"]
    assert compose.container_id_command(tool, REPO) == [*tool, *PREFIX, "ps", "-a", "-q", "server"]


def test_a_second_server_beside_the_first_is_its_own_projects_from_up_to_down():
    beside = [*V2, "-p", "httplab-b", *PREFIX[2:]]
    assert compose.up_command(V2, REPO, project="httplab-b") == \
        [*beside, "up", "-d", "--no-build", "server"]
    assert compose.down_command(V2, REPO, "httplab-b") == \
        [*beside, "down", "--remove-orphans", "-t", "10"]
    assert compose.container_id_command(V2, REPO, "httplab-b") == \
        [*beside, "ps", "-a", "-q", "server"]


@pytest.mark.parametrize("tool", [V2, V1])
def test_the_seccomp_override_is_added_only_when_asked_with_the_profiles_absolute_path(tool):
    files = ["-f", "/lab/docker-compose.yml", "-f", "/lab/docker-compose.seccomp.yml"]
    assert compose.up_command(tool, REPO, seccomp=True) == \
        [*tool, "-p", "httplab", *files, "--project-directory", "/lab", "up", "-d",
         "--no-build", "server"]
    assert compose.seccomp_environment(None) == {}
    assert compose.seccomp_environment(Path("servers/seccomp/io_uring.json")) == \
        {"HTTPLAB_SECCOMP": str(Path("servers/seccomp/io_uring.json").resolve())}


@pytest.mark.parametrize("service, expected", [
    ("server", [*V2, *PREFIX, "build", "server"]),
    ("wrk", [*V2, *PREFIX, "--profile", "wrk", "build", "wrk"]),
])
def test_build_names_the_service_and_wrks_profile(service, expected):
    assert compose.build_command(V2, REPO, service) == expected


@pytest.mark.parametrize("server, dockerfile, expected", [
    ("netty", None, {"HTTPLAB_SERVER": "netty", "HTTPLAB_DOCKERFILE": "Dockerfile"}),
    ("grizzly", "grizzly/Dockerfile",
     {"HTTPLAB_SERVER": "grizzly", "HTTPLAB_DOCKERFILE": "grizzly/Dockerfile"}),
])
def test_the_server_is_picked_by_the_environment_not_the_command_line(server, dockerfile,
                                                                       expected):
    arguments = (server,) if dockerfile is None else (server, dockerfile)
    assert compose.server_environment(*arguments) == expected


def test_wrk_runs_named_removed_and_writes_json_into_the_mount():
    command = compose.wrk_run_command(V2, REPO, "httplab-wrk-1", "netty-t10-c500.json",
                                      "netty-t10-c500.wrk.cpu.txt",
                                      ["-t10", "http://127.0.0.1:8080/"])
    assert command[len(V2) + len(PREFIX):] == [
        "--profile", "wrk", "run", "--rm", "-T", "--name", "httplab-wrk-1",
        "-e", "HTTPLAB_WRK_JSON=/out/netty-t10-c500.json",
        "--entrypoint", "/opt/httplab/cpu-times.sh", "wrk", "/out/netty-t10-c500.wrk.cpu.txt",
        "wrk", "-t10", "http://127.0.0.1:8080/"]


@pytest.mark.parametrize("build, tool", [
    (lambda: compose.wrk_run_command(V1, REPO, "httplab-wrk-1", "s.json", "s.wrk.cpu.txt",
                                     ["-t1"]), ["wrk", "-t1"]),
    (lambda: compose.fairness_run_command(V1, REPO, "httplab-wrk-1", "s.h2load.cpu.txt",
                                          ["/out/s", "0.3", "2.7", "8080", "--", "-c1"]),
     ["/opt/httplab/fairness.sh", "/out/s", "0.3", "2.7", "8080", "--", "-c1"]),
    (lambda: compose.oha_run_command(V1, REPO, "httplab-wrk-1", "s.oha.cpu.txt", ["-q", "10"]),
     ["/usr/local/bin/oha", "-q", "10"]),
    (lambda: compose.h2load_run_command(V1, REPO, "httplab-wrk-1", "s.h2load.cpu.txt",
                                        ["-t1", "-m1", "--log-file=/out/s.tsv", "http://a/"]),
     ["h2load", "-t1", "-m1", "--log-file=/out/s.tsv", "http://a/"]),
], ids=["wrk", "h2load", "oha", "h2load-bench"])
def test_every_load_tool_runs_under_cpu_times_sh_which_writes_into_the_mount(build, tool):
    """cpu-times.sh CPU_FILE TOOL [ARGUMENTS...]: the tool's own CPU time, read afterwards."""
    command = build()
    at = command.index("--entrypoint")
    assert command[at:at + 3] == ["--entrypoint", "/opt/httplab/cpu-times.sh", "wrk"]
    cpu_file = command[at + 3]
    assert cpu_file.startswith("/out/s.") and cpu_file.endswith(".cpu.txt")
    assert command[at + 4:] == tool


def test_env_file_lines():
    assert parse_env_file("# c\n\nA=x\n B = y \nnot a pair\n") == {"A": "x", "B": "y"}


def test_the_repositorys_base_images_file_names_every_build_arg(repo):
    args = local_build_args((repo / BASE_IMAGES_ENV).read_text())
    assert set(args) == {"BUILD_IMAGE", "RUNTIME_IMAGE", "WRK_BASE_IMAGE", "NGINX_IMAGE"}
    assert all(image.startswith("httplab/") for image in args.values())


def test_a_base_images_file_missing_a_name_is_refused():
    with pytest.raises(ValueError, match="HTTPLAB_WRK_BASE_IMAGE"):
        local_build_args("HTTPLAB_BUILD_IMAGE=a\nHTTPLAB_RUNTIME_IMAGE=b\n")


def test_oha_sees_the_runs_ca_read_only_at_the_path_its_arguments_name():
    command = compose.oha_run_command(V2, REPO, "httplab-wrk-1", "s.oha.cpu.txt",
                                      ["--cacert", "/tmp/tls/ca.pem", "https://a/"],
                                      "/tmp/tls/ca.pem")
    at = command.index("-v")
    assert command[at:at + 2] == ["-v", "/tmp/tls/ca.pem:/tmp/tls/ca.pem:ro"]
    assert at < command.index("--entrypoint")
    assert "-v" not in compose.oha_run_command(V2, REPO, "httplab-wrk-1", "s.oha.cpu.txt", [])
