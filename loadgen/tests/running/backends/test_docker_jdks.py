"""A server's image per JDK, built by the docker backend (official or local base images,
as the machine allows) and running the JDK it is named for."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from httplab.paths import DEFAULT_REPO
from httplab.checking.conformance import startup_problems
from httplab.running.backends.docker import DockerBackend
from httplab.running.base_images import server_image
from httplab.running.docker import compose as cmd

from tests.docker_support import engine_problem, require

JDKS = (17, 25)


def named(manifests, name):
    return next(manifest for manifest in manifests if manifest.name == name)


@pytest.mark.docker
def test_compose_renders_the_jdks_image_tag_and_build_arg(manifests):
    require(engine_problem())
    backend = DockerBackend(DEFAULT_REPO)
    backend.check_available()
    for name, jdk, wanted_jdk in (("netty", 17, "17"), ("nginx", 17, "")):
        manifest = named(manifests, name)
        env = {**os.environ, **backend.server_environment(name),
               **backend.images.image_environment(manifest, jdk)}
        config = subprocess.run([*backend.compose, "-f", str(DEFAULT_REPO / cmd.COMPOSE_FILE),
                                 "config"], capture_output=True, text=True, env=env, timeout=60)
        assert config.returncode == 0, config.stderr
        assert f"image: {server_image(manifest, jdk)}" in config.stdout
        assert re.search(rf"^ +JDK: ['\"]?{wanted_jdk}['\"]?$", config.stdout, re.M), config.stdout


@pytest.mark.docker
def test_a_servers_variants_on_jdk_17_and_25_say_they_run_those_jdks(manifests, tmp_path):
    require(engine_problem())
    variants = tuple(named(manifests, "netty").on_axis("JDK", str(jdk), None) for jdk in JDKS)
    backend = DockerBackend(DEFAULT_REPO)
    backend.check_available()
    backend.prepare(variants)
    for variant in variants:
        with backend.serve(variant, log_path=tmp_path / f"{variant.key}.log") as started:
            assert started.startup.runtime.feature == variant.jdk, started.startup.line
            assert not startup_problems(started.startup, variant)
