"""Adding a framework is a folder and one <module> line: a copy of an existing server, renamed
in its manifest and build file, is found, tabled, checked and given an image with no other
edit anywhere. Its manifest brings what every framework states: the blocking pool /blocking
runs on and the pages its /json, /delay and /blocking follow (a copy missing them is
refused, naming its file); the jar's answers at those endpoints are checked with every
other jar's by tests/servers/test_jars.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from httplab.manifest import ManifestError, discover
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.presentation.markdown.readme_table import readme_servers_table
from httplab.running.docker.compose import dockerfile_for
from httplab.running.backends.docker import DockerBackend

from tests.docker_support import require

NEW = "vertx2"


@pytest.fixture(scope="module")
def lab_with_a_new_server(tmp_path_factory):
    """A copy of the lab's servers/ and Compose file, plus servers/vertx2 made from vertx."""
    repo = tmp_path_factory.mktemp("lab")
    shutil.copytree(servers_dir(DEFAULT_REPO), repo / "servers",
                    ignore=shutil.ignore_patterns("target"))
    shutil.copy(DEFAULT_REPO / "docker-compose.yml", repo)
    shutil.copytree(repo / "servers" / "vertx", repo / "servers" / NEW)
    _replace(repo / "servers" / NEW / "server.toml", 'display_name = "Vert.x"',
             'display_name = "Vert.x copy"')
    _replace(repo / "servers" / NEW / "pom.xml", "<artifactId>httplab-server-vertx</artifactId>",
             f"<artifactId>httplab-server-{NEW}</artifactId>")
    _replace(repo / "servers" / NEW / "pom.xml", "<finalName>vertx</finalName>",
             f"<finalName>{NEW}</finalName>")
    _replace(repo / "servers" / "pom.xml", "<module>vertx</module>",
             f"<module>vertx</module>\n    <module>{NEW}</module>")
    return repo


def _replace(path, old, new):
    text = path.read_text()
    assert old in text, f"{path} no longer holds {old!r}: update this test's copy step"
    path.write_text(text.replace(old, new, 1))


def test_discovery_finds_the_new_server_with_its_version_from_the_build(lab_with_a_new_server):
    found = {m.name: m for m in discover(lab_with_a_new_server / "servers")}
    original = {m.name: m for m in discover(servers_dir(DEFAULT_REPO))}
    assert set(found) == set(original) | {NEW}
    assert found[NEW].label == "Vert.x copy"
    assert found[NEW].version == original["vertx"].version
    assert found[NEW].jar_path(lab_with_a_new_server / "servers").name == f"{NEW}.jar"


BLOCKING_KEYS = ("blocking_pool", "blocking_pool_source", "blocking_pool_kind",
                 "blocking_thread_prefix", "endpoints_source")


def test_the_new_server_states_its_blocking_pool_and_endpoint_sources(lab_with_a_new_server):
    found = {m.name: m for m in discover(lab_with_a_new_server / "servers")}
    new, original = found[NEW], found["vertx"]
    assert all(getattr(new, key) for key in BLOCKING_KEYS)
    assert [getattr(new, key) for key in BLOCKING_KEYS] == \
        [getattr(original, key) for key in BLOCKING_KEYS]
    assert new.blocking_pool_size(2) == original.blocking_pool_size(2) >= 1


@pytest.mark.parametrize("key", BLOCKING_KEYS)
def test_a_new_server_without_a_blocking_key_is_refused_naming_it(lab_with_a_new_server,
                                                                  tmp_path, key):
    servers = tmp_path / "servers"
    shutil.copytree(lab_with_a_new_server / "servers", servers)
    manifest = servers / NEW / "server.toml"
    kept = [line for line in manifest.read_text().splitlines() if not line.startswith(key + " ")]
    manifest.write_text("\n".join(kept) + "\n")
    with pytest.raises(ManifestError, match=rf"^servers/{NEW}/server\.toml: {key}: missing \("):
        discover(servers)


def test_the_readme_table_lists_the_new_server(lab_with_a_new_server):
    table = readme_servers_table(discover(lab_with_a_new_server / "servers"))
    assert re.search(rf"^\| Vert.x copy \| .* \| `servers/{NEW}` \|$", table, re.M), table


def test_the_new_server_is_built_by_the_shared_dockerfile(lab_with_a_new_server):
    servers = lab_with_a_new_server / "servers"
    assert dockerfile_for(servers, NEW) == servers / "Dockerfile"


@pytest.mark.docker
def test_compose_renders_the_new_servers_image_and_build(lab_with_a_new_server):
    compose = ["docker", "compose"]
    problem = None if shutil.which("docker") else "docker is not installed"
    require(problem)
    chosen = DockerBackend(lab_with_a_new_server).server_environment(NEW)
    config = subprocess.run([*compose, "-f", str(lab_with_a_new_server / "docker-compose.yml"),
                             "config"], capture_output=True, text=True,
                            cwd=lab_with_a_new_server, env={**os.environ, **chosen})
    assert config.returncode == 0, config.stderr
    assert f"image: httplab/{NEW}:latest" in config.stdout
    assert re.search(rf"^ +SERVER: {NEW}$", config.stdout, re.M)
