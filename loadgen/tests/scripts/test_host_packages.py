"""scripts/host-packages.txt is the one list of the host's Debian packages: docs/testing.md
quotes each group (the README points to the list), .ci/run and .ci/docker-setup.sh
install from it, and `make test` checks its `test` group before anything else."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from httplab.paths import DEFAULT_REPO
from tests.support import browser

SCRIPT = DEFAULT_REPO / "scripts" / "host-packages.sh"
LIST = DEFAULT_REPO / "scripts" / "host-packages.txt"
GROUPS = ("test", "docker", "hosts", "browser")


def _script(*args: str, listing=None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if listing is not None:
        env["HTTPLAB_HOST_PACKAGES"] = str(listing)
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, timeout=30)


def _listed(*groups: str) -> list[str]:
    result = _script("list", *groups)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def _entries() -> list[list[str]]:
    lines = LIST.read_text().splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


def test_every_line_has_a_package_a_known_group_and_a_probe():
    for fields in _entries():
        assert len(fields) == 3, fields
        assert fields[1] in GROUPS, fields


@pytest.mark.parametrize("group", GROUPS)
def test_the_docs_quote_each_group_whole(group):
    testing = (DEFAULT_REPO / "docs" / "testing.md").read_text()
    quoted = re.findall(r"`apt-get install ([a-z0-9.+\- ]+)`", testing)
    assert " ".join(_listed(group)) in quoted


def test_the_readme_points_to_the_list():
    assert "scripts/host-packages.txt" in (DEFAULT_REPO / "README.md").read_text()


def test_a_local_profiled_run_finds_jattach_with_the_test_group():
    """BACKEND=local PROFILE=1 drives async-profiler with the host's jattach."""
    assert "jattach" in _listed("test")


def test_the_test_group_brings_a_cargo_for_make_oha():
    """`make test` builds oha with the host's cargo (scripts/oha.sh), so host-check asks
    for one: the probe is any cargo on PATH, the package Debian 12's cargo-web, since
    bookworm's own `cargo` (0.66) is older than oha's Rust 1.88."""
    entries = {fields[0]: fields for fields in _entries()}
    assert entries["cargo-web"][1:] == ["test", "cargo"]
    assert "command -v cargo" in (DEFAULT_REPO / "scripts" / "oha.sh").read_text()
    assert re.search(r"^test: host-check venv jars oha\b", (DEFAULT_REPO / "Makefile").read_text(),
                     re.MULTILINE)


def test_the_needs_of_ci_are_installed_from_the_list():
    ci_run = (DEFAULT_REPO / ".ci" / "run").read_text()
    docker_setup = (DEFAULT_REPO / ".ci" / "docker-setup.sh").read_text()
    assert "scripts/host-packages.sh missing test hosts browser docker)" in ci_run
    assert 'host-packages.sh" missing docker' in docker_setup
    assert "make test" in ci_run.splitlines()[-1]


def test_make_test_checks_the_test_group_before_building_anything():
    """Only the `test` group: the other groups' tests skip, saying why, where theirs miss."""
    makefile = (DEFAULT_REPO / "Makefile").read_text()
    assert re.search(r"^test: host-check venv jars ", makefile, re.MULTILINE)
    assert re.search(r"scripts/host-packages\.sh check test$", makefile, re.MULTILINE)


def test_the_browser_tests_use_what_the_browser_group_installs():
    entries = {fields[0]: fields for fields in _entries()}
    assert _listed("browser") == ["chromium", "chromium-driver"]
    assert entries["chromium"][2] == str(browser.CHROMIUM)
    assert entries["chromium-driver"][2] == browser.CHROMEDRIVER.name  # on PATH, in /usr/bin


def _fake_list(tmp_path, *lines: str):
    listing = tmp_path / "packages.txt"
    listing.write_text("# a comment\n\n" + "\n".join(lines) + "\n")
    return listing


def test_check_names_every_missing_package_in_one_line_and_exits_2(tmp_path):
    listing = _fake_list(tmp_path, "present-cmd test sh", "gone-cmd test no-such-tool-httplab",
                         "gone-path test /no/such/path", "gone-module test py:no_such_module_httplab",
                         "other-group hosts no-such-tool-httplab")
    result = _script("check", "test", listing=listing)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].endswith("apt-get install gone-cmd gone-path gone-module")
    assert "present-cmd" not in lines[0] and "other-group" not in lines[0]


def test_check_is_silent_when_every_probe_is_found(tmp_path):
    listing = _fake_list(tmp_path, "a test sh", "b test /", "c test py:os")
    result = _script("check", "test", listing=listing)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_missing_lists_only_the_asked_groups(tmp_path):
    listing = _fake_list(tmp_path, "a test no-such-tool-httplab", "b docker no-such-tool-httplab",
                         "c hosts no-such-tool-httplab", "d hosts sh")
    assert _script("missing", "test", "hosts", listing=listing).stdout.split() == ["a", "c"]
    assert _script("missing", "docker", listing=listing).stdout.split() == ["b"]


def test_a_bad_command_prints_the_usage_and_exits_2():
    result = _script("install", "test")
    assert result.returncode == 2 and "missing GROUP" in result.stderr
