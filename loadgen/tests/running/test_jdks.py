"""The host's JDKs (running/jdks.py): the release file's parser, and the finder on a fake
tree of JAVA_HOMEs."""

from pathlib import Path

import pytest

from httplab.running.jdks import (LAB_JDKS, JdkNotFound, candidate_homes, feature_version,
                                  java_executable, java_home, main, newest_java_home,
                                  parse_release)


@pytest.mark.parametrize("text, expected", [
    ('JAVA_VERSION="25.0.5"\n', {"JAVA_VERSION": "25.0.5"}),
    ('IMPLEMENTOR="Debian"\nJAVA_VERSION="21.0.13"\nLIBC="gnu"\n',
     {"IMPLEMENTOR": "Debian", "JAVA_VERSION": "21.0.13", "LIBC": "gnu"}),
    ('JAVA_VERSION=17.0.15\n', {"JAVA_VERSION": "17.0.15"}),
    ('MODULES="java.base java.xml"\n', {"MODULES": "java.base java.xml"}),
    ("no pair here\n\n=orphan\n", {}),
    ("", {}),
])
def test_release_file_lines(text, expected):
    assert parse_release(text) == expected


@pytest.mark.parametrize("version, expected", [
    ("25.0.5", 25), ("21.0.13", 21), ("17.0.15", 17), ("21", 21), ("26-ea", 26),
    ("1.8.0_392", 8), ("11.0.2", 11), ("", None), ("abc", None),
])
def test_feature_version(version, expected):
    assert feature_version(version) == expected


def make_home(home: Path, version: str | None, java: bool = True) -> Path:
    (home / "bin").mkdir(parents=True)
    if version is not None:
        (home / "release").write_text(f'IMPLEMENTOR="Test"\nJAVA_VERSION="{version}"\n')
    if java:
        (home / "bin" / "java").write_text("#!/bin/sh\n")
    return home


@pytest.fixture
def host(tmp_path):
    """A repository with the lab's JDK 25, and a /usr/lib/jvm with 17, another 25, a link
    to 17 (as Debian's java-1.17.0-openjdk-amd64), a JRE-less folder and a release-less one."""
    repo, jvm = tmp_path / "repo", tmp_path / "jvm"
    make_home(repo / LAB_JDKS / "25", "25.0.5")
    make_home(jvm / "java-17-openjdk-amd64", "17.0.15")
    make_home(jvm / "temurin-25-jdk-amd64", "25.0.3")
    (jvm / "java-1.17.0-openjdk-amd64").symlink_to("java-17-openjdk-amd64")
    make_home(jvm / "broken", "21.0.1", java=False)
    make_home(jvm / "openjdk-17", None)
    return repo, jvm


def test_the_labs_own_jdk_comes_before_the_systems(host):
    repo, jvm = host
    assert java_home(25, repo, jvm, environ={}) == repo / LAB_JDKS / "25"


def test_a_jdks_java_is_its_homes(host):
    repo, jvm = host
    assert java_executable(25, repo, jvm, environ={}) == repo / LAB_JDKS / "25" / "bin" / "java"


def test_a_system_jdk_is_named_by_its_real_folder(host):
    repo, jvm = host
    assert java_home(17, repo, jvm, environ={}) == (jvm / "java-17-openjdk-amd64").resolve()


def test_java_home_is_looked_at_last(host, tmp_path):
    repo, jvm = host
    other = make_home(tmp_path / "elsewhere", "21.0.13")
    environ = {"JAVA_HOME": str(other)}
    assert java_home(21, repo, jvm, environ) == other
    assert java_home(25, repo, jvm, environ) == repo / LAB_JDKS / "25"
    assert candidate_homes(repo, jvm, str(other))[-1] == other


def test_a_missing_jdk_is_one_line_naming_how_to_get_it(host):
    repo, jvm = host
    with pytest.raises(JdkNotFound) as raised:
        java_home(21, repo, jvm, environ={})  # "broken" has no bin/java
    assert str(raised.value) == ("JDK 21 not found on this host: install openjdk-21-jdk-headless "
                                 "(Debian 13, Ubuntu 24.04), or `make jdks`")


def test_the_newest_jdk_at_least_n(host, tmp_path):
    repo, jvm = host
    assert newest_java_home(21, repo, jvm, environ={}) == repo / LAB_JDKS / "25"
    assert newest_java_home(17, repo, jvm, environ={}) == repo / LAB_JDKS / "25"
    with pytest.raises(JdkNotFound, match="JDK 26 or later not found on this host"):
        newest_java_home(26, repo, jvm, environ={})


def test_no_folders_at_all_finds_nothing(tmp_path):
    with pytest.raises(JdkNotFound, match="install openjdk-17-jdk-headless"):
        java_home(17, tmp_path / "repo", tmp_path / "none", environ={})


def test_the_command_line_prints_a_home_or_one_line(capsys):
    assert main(["x"]) == 2
    assert "usage" in capsys.readouterr().err
    assert main(["99"]) == 2
    assert capsys.readouterr().err == "httplab: JDK 99 not found on this host: install a JDK 99 package\n"
