"""The base images each JDK's build gets (DockerImages.base_build_args), the engine faked."""

import pytest

from httplab.running.backend_error import BackendError
from httplab.running.backends import docker_images
from httplab.running.backends.docker_images import DockerImages
from httplab.running.base_images import BASE_IMAGES_ENV, BUILD_ARGS

ENV = """HTTPLAB_RUNTIME_IMAGE_17=local/jre:bookworm
HTTPLAB_RUNTIME_IMAGE_25=local/jre25:trixie
HTTPLAB_BUILD_IMAGE=local/maven:trixie
HTTPLAB_WRK_BASE_IMAGE=local/wrk:bookworm
HTTPLAB_NGINX_IMAGE=local/jre:bookworm
"""


@pytest.fixture
def lab(tmp_path, monkeypatch):
    """A lab whose official images cannot be had and whose local ones are all present."""
    (tmp_path / BASE_IMAGES_ENV).parent.mkdir(parents=True)
    (tmp_path / BASE_IMAGES_ENV).write_text(ENV)
    for arg in BUILD_ARGS:
        monkeypatch.delenv(arg, raising=False)
    monkeypatch.setattr(docker_images, "image_reachable", lambda image: False)
    monkeypatch.setattr(docker_images, "_image_exists", lambda image: True)
    return tmp_path


@pytest.mark.parametrize("jdk, runtime", [(17, "local/jre:bookworm"), (25, "local/jre25:trixie")])
def test_without_a_registry_each_jdk_gets_its_local_runtime_image(lab, jdk, runtime):
    args = DockerImages(lab, "auto").base_build_args(jdk)
    assert args["RUNTIME_IMAGE"] == runtime
    assert args["BUILD_IMAGE"] == "local/maven:trixie"


def test_a_base_image_set_by_the_caller_wins_the_others_stay_local(lab, monkeypatch):
    monkeypatch.setenv("BUILD_IMAGE", "mine/maven")
    args = DockerImages(lab, "auto").base_build_args(17)
    assert args["BUILD_IMAGE"] == "mine/maven"
    assert args["RUNTIME_IMAGE"] == "local/jre:bookworm"


def test_official_images_are_the_dockerfiles_defaults(lab):
    assert DockerImages(lab, "official").base_build_args(21) == {}


def test_a_jdk_without_a_local_image_stops_with_one_line(lab):
    with pytest.raises(BackendError, match="no local runtime image for JDK 21"):
        DockerImages(lab, "local").base_build_args(21)


def test_missing_local_images_say_to_run_make_base_images(lab, monkeypatch):
    monkeypatch.setattr(docker_images, "_image_exists", lambda image: image != "local/jre25:trixie")
    with pytest.raises(BackendError, match=r"missing \(local/jre25:trixie\): run `make base-images`"):
        DockerImages(lab, "auto").base_build_args(25)
