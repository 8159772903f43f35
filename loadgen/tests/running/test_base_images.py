"""Base images and image names per JDK (running/base_images.py): pure."""

import pytest

from httplab.running.base_images import (BASE_IMAGES_ENV, OFFICIAL_PROBE_IMAGE, image_tag,
                                         local_build_args, local_runtime_images,
                                         official_runtime_image, server_image)
from httplab.running.jdks import DEFAULT_JDK

ENV = """# comment
HTTPLAB_RUNTIME_IMAGE_17=local/jre:bookworm
HTTPLAB_RUNTIME_IMAGE_25=local/jre25:trixie
HTTPLAB_BUILD_IMAGE=local/maven:trixie
HTTPLAB_WRK_BASE_IMAGE=local/wrk:bookworm
HTTPLAB_NGINX_IMAGE=local/jre:bookworm
"""


def named(manifests, name):
    return next(manifest for manifest in manifests if manifest.name == name)


@pytest.mark.parametrize("jdk, tag", [(17, "jdk17"), (21, "jdk21"), (25, "jdk25")])
def test_a_jvm_servers_image_is_tagged_by_its_jdk(manifests, jdk, tag):
    netty = named(manifests, "netty")
    assert image_tag(netty, jdk) == tag
    assert server_image(netty, jdk) == f"httplab/netty:{tag}"


def test_the_default_jdks_image_is_named_without_a_jdk(manifests):
    netty = named(manifests, "netty")
    assert server_image(netty) == server_image(netty, DEFAULT_JDK) == f"httplab/netty:jdk{DEFAULT_JDK}"


def test_a_server_that_runs_no_jvm_has_one_image_whatever_the_jdk(manifests):
    nginx = named(manifests, "nginx")
    assert {server_image(nginx, jdk) for jdk in (17, 21, 25)} == {"httplab/nginx:latest"}


def test_every_jvm_servers_images_are_distinct_across_jdks(manifests):
    names = [server_image(manifest, jdk) for manifest in manifests if manifest.is_maven_module
             for jdk in (17, 21, 25)]
    assert len(names) == len(set(names))


def test_local_runtime_images_by_jdk():
    assert local_runtime_images(ENV) == {17: "local/jre:bookworm", 25: "local/jre25:trixie"}


@pytest.mark.parametrize("jdk, runtime", [(17, "local/jre:bookworm"), (25, "local/jre25:trixie")])
def test_local_build_args_give_the_jdks_runtime_image(jdk, runtime):
    assert local_build_args(ENV, jdk) == {"RUNTIME_IMAGE": runtime,
                                          "BUILD_IMAGE": "local/maven:trixie",
                                          "WRK_BASE_IMAGE": "local/wrk:bookworm",
                                          "NGINX_IMAGE": "local/jre:bookworm"}


def test_a_jdk_without_a_local_runtime_image_is_refused_naming_those_there_are():
    with pytest.raises(ValueError, match=r"no local runtime image for JDK 21 "
                                         r"\(HTTPLAB_RUNTIME_IMAGE_21; it has JDK 17, 25\)"):
        local_build_args(ENV, 21)


def test_the_repositorys_base_images_file_offers_every_jdk(repo):
    text = (repo / BASE_IMAGES_ENV).read_text()
    runtime = local_runtime_images(text)
    assert set(runtime) == {17, 21, 25}
    # The suite is the tag: Debian 12 packages JDK 17 only.
    assert [image.rpartition(":")[2] for image in runtime.values()] == ["bookworm", "trixie", "trixie"]
    assert local_build_args(text)["RUNTIME_IMAGE"] == runtime[DEFAULT_JDK]


def test_the_official_runtime_image_is_temurins_jre_of_the_jdk():
    assert official_runtime_image(17) == "eclipse-temurin:17-jre"
    assert OFFICIAL_PROBE_IMAGE == official_runtime_image(DEFAULT_JDK)
