"""oha as a tool of the lab: one version (command.py) that the wrk image and `make oha`
build, where the harness finds the binary, and the local backend's run of it."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from httplab.loadtools.oha.command import OHA_VERSION, OhaRequest, oha_arguments
from httplab.loadtools.oha.report import parse_oha_json
from httplab.paths import DEFAULT_REPO, LUA_SCRIPT, OHA_IN_REPO, oha_binary, servers_dir
from httplab.running.backends import local
from httplab.running.docker import compose
from httplab.running.backends.base import OHA_MISSING, WrkOutcome, oha_version
from httplab.running.backend_error import BackendError
from httplab.running.backends.docker import DockerBackend
from httplab.running.backends.local import LocalBackend

from tests.docker_support import engine_problem, require
from tests.loadtools.oha.test_freezing import freezing_server_url  # noqa: F401 (a fixture)

DOCKERFILE_PIN = re.compile(r"^ARG OHA_VERSION=(\S+)$", re.MULTILINE)
SYSTEM_PATH = "/usr/bin:/bin"  # without rustup's ~/.cargo/bin
STAND_IN_REQUEST = OhaRequest(rate_per_s=10, duration_s=1, connections=1,
                              url="http://127.0.0.1:9/")


def executable(path: Path, script: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_the_wrk_image_builds_the_version_the_reader_is_written_for(repo):
    assert DOCKERFILE_PIN.findall((repo / "loadgen" / "Dockerfile").read_text()) == [OHA_VERSION]


def test_make_oha_takes_the_version_from_command_py_and_states_none_of_its_own(repo):
    makefile = (repo / "Makefile").read_text()
    assert OHA_VERSION not in makefile
    dry_run = subprocess.run(["make", "-n", "oha"], cwd=repo, capture_output=True, text=True,
                             check=True)
    assert f"bash scripts/oha.sh '{OHA_VERSION}' '{OHA_IN_REPO.parent.parent}'" in dry_run.stdout
    assert re.search(r"^test:.* oha\b", makefile, re.MULTILINE), "make test must build oha"


def test_the_oha_script_names_what_to_install_when_cargo_is_missing(repo, tmp_path):
    if shutil.which("cargo", path=SYSTEM_PATH):
        pytest.skip(f"cargo is on {SYSTEM_PATH} here: it cannot be hidden")
    script = subprocess.run(["bash", str(repo / "scripts" / "oha.sh"), OHA_VERSION,
                             str(tmp_path)], capture_output=True, text=True,
                            env={**os.environ, "PATH": SYSTEM_PATH, "HOME": str(tmp_path)})
    lines = script.stderr.strip().splitlines()
    assert script.returncode == 2 and len(lines) == 1
    assert lines[0].startswith("httplab: error: cargo not found") and "rustup" in lines[0]


def test_the_oha_script_finds_rustups_cargo_off_the_path(repo, tmp_path):
    """A shell that read no ~/.profile has no ~/.cargo/bin on PATH; the script looks there."""
    if shutil.which("cargo", path=SYSTEM_PATH):
        pytest.skip(f"cargo is on {SYSTEM_PATH} here: rustup's would not be looked for")
    root = tmp_path / "root"
    executable(tmp_path / ".cargo" / "bin" / "cargo",
               f'mkdir -p "{root}/bin"\n'
               f"printf '#!/bin/sh\\necho oha {OHA_VERSION}\\n' > '{root}/bin/oha'\n"
               f'chmod +x "{root}/bin/oha"\n')
    script = subprocess.run(["bash", str(repo / "scripts" / "oha.sh"), OHA_VERSION, str(root)],
                            capture_output=True, text=True,
                            env={**os.environ, "PATH": SYSTEM_PATH, "HOME": str(tmp_path)})
    assert script.returncode == 0, script.stderr
    assert f"built oha {OHA_VERSION}" in script.stderr


def test_the_oha_script_keeps_a_build_of_the_right_version(repo, tmp_path):
    executable(tmp_path / "bin" / "oha", f"echo 'oha {OHA_VERSION}'\n")
    script = subprocess.run(["bash", str(repo / "scripts" / "oha.sh"), OHA_VERSION,
                             str(tmp_path)], capture_output=True, text=True,
                            env={**os.environ, "PATH": SYSTEM_PATH})
    assert (script.returncode, script.stderr) == (0, "")


def test_the_repositorys_oha_comes_first_then_paths(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    assert oha_binary(tmp_path) == "oha"
    on_path = executable(tmp_path / "path" / "oha", "exit 0\n")
    assert oha_binary(tmp_path) == str(on_path)
    built = executable(tmp_path / OHA_IN_REPO, "exit 0\n")
    assert oha_binary(tmp_path) == str(built)


def test_a_missing_oha_says_how_to_build_it(tmp_path):
    backend = LocalBackend(servers_dir(tmp_path), LUA_SCRIPT, oha=str(tmp_path / "no-oha"))
    with pytest.raises(BackendError) as raised:
        backend.check_oha()
    assert str(raised.value) == OHA_MISSING
    assert OHA_MISSING == f"oha not found: run `make oha` (builds oha {OHA_VERSION} with cargo)"
    assert backend.versions()["oha"] is None


def test_the_local_backend_defaults_to_the_repositorys_build(tmp_path):
    built = executable(tmp_path / OHA_IN_REPO, f"echo 'oha {OHA_VERSION}'\n")
    backend = LocalBackend(servers_dir(tmp_path), LUA_SCRIPT)
    assert backend.oha == str(built)
    backend.check_oha()
    assert backend.versions()["oha"] == f"oha {OHA_VERSION}"


def test_run_oha_keeps_stdout_as_the_json_and_stderr_stripped(tmp_path):
    stand_in = executable(tmp_path / "oha", 'echo "$@"; echo " slow down " >&2; exit 3\n')
    backend = LocalBackend(servers_dir(tmp_path), LUA_SCRIPT, oha=str(stand_in))
    outcome = backend.run_oha(STAND_IN_REQUEST, tmp_path / "run.oha.json")
    assert (outcome.exit_code, outcome.stderr) == (3, "slow down")
    assert outcome.cpu_seconds is not None and outcome.cpu_seconds >= 0
    assert (tmp_path / "run.oha.json").read_text().split() == oha_arguments(STAND_IN_REQUEST)


def test_run_oha_is_killed_after_its_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(local, "oha_time_limit_s", lambda request: 1)
    stand_in = executable(tmp_path / "oha", "exec sleep 30\n")
    backend = LocalBackend(servers_dir(tmp_path), LUA_SCRIPT, oha=str(stand_in))
    outcome = backend.run_oha(STAND_IN_REQUEST, tmp_path / "run.oha.json")
    assert (outcome.exit_code, outcome.stderr) == (-1, "oha did not finish within 1 s")


def test_oha_runs_in_the_wrk_service_with_its_own_entrypoint():
    command = compose.oha_run_command(["docker", "compose"], Path("/lab"), "httplab-wrk-1",
                                      "netty-q100.oha.cpu.txt",
                                      ["--no-tui", "http://127.0.0.1:8080/"])
    assert command[:2] == ["docker", "compose"] and "wrk" in command[:command.index("run")]
    # Through cpu-times.sh, which writes oha's CPU time into the mount once it exited.
    assert command[command.index("run"):] == [
        "run", "--rm", "-T", "--name", "httplab-wrk-1",
        "--entrypoint", "/opt/httplab/cpu-times.sh", "wrk", "/out/netty-q100.oha.cpu.txt",
        "/usr/local/bin/oha", "--no-tui", "http://127.0.0.1:8080/"]


@pytest.mark.parametrize("printed, expected", [
    (f"oha {OHA_VERSION}\n", f"oha {OHA_VERSION}"), (None, None),
    ('docker: Error response from daemon: exec: "oha": not found', None)])
def test_only_a_version_line_counts_as_ohas_version(printed, expected):
    assert oha_version(printed) == expected


def answers_at_a_low_rate(backend, url: str, json_path: Path) -> WrkOutcome:
    """200 requests a second for one second: the outcome, once the JSON has been read."""
    request = OhaRequest(rate_per_s=200, duration_s=1, connections=4, url=url)
    outcome = backend.run_oha(request, json_path)
    assert outcome.exit_code == 0, outcome.stderr
    report = parse_oha_json(json_path.read_text(), request.rate_per_s, f"oha by {backend.name}")
    assert report.answered > 0 and report.failed == 0
    return outcome


@pytest.mark.slow
@pytest.mark.skipif(shutil.which(oha_binary(DEFAULT_REPO)) is None, reason="needs oha: make oha")
def test_local_run_oha_against_a_stand_in_server(tmp_path, freezing_server_url):  # noqa: F811
    backend = LocalBackend(servers_dir(DEFAULT_REPO), LUA_SCRIPT)
    outcome = answers_at_a_low_rate(backend, freezing_server_url, tmp_path / "run.oha.json")
    assert outcome.cpu_seconds is not None and outcome.cpu_seconds > 0


@pytest.fixture(scope="module")
def prepared_docker_backend(repo, manifests) -> DockerBackend:
    """The wrk image built as the harness builds it (minutes the first time), before the
    stand-in server starts: it stops by itself after a minute."""
    require(engine_problem())
    backend = DockerBackend(repo)
    backend.check_available()
    backend.prepare(tuple(m for m in manifests if m.name == "netty"))
    return backend


@pytest.mark.docker
@pytest.mark.slow
def test_docker_run_oha_from_the_wrk_image(tmp_path, prepared_docker_backend,
                                           freezing_server_url):  # noqa: F811
    """oha run in the wrk image by compose against a stand-in on this host's loopback (host
    networking). No server container: `serving` is set by hand, as serve() would."""
    backend = prepared_docker_backend
    assert backend.versions()["oha"] == f"oha {OHA_VERSION}"
    backend.serving = "netty"
    outcome = answers_at_a_low_rate(backend, freezing_server_url, tmp_path / "run.oha.json")
    assert outcome.cpu_seconds is not None and outcome.cpu_seconds > 0  # read in its container
    assert list(tmp_path.iterdir()) == [tmp_path / "run.oha.json"]
