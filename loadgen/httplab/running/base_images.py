"""Which base images the Dockerfiles get: the official ones, or local ones made from
Debian packages by scripts/base-images.sh where no registry can be reached; and the name
of each server's image, one per JDK. Pure."""

from __future__ import annotations

import re
from pathlib import Path

from httplab.manifest import ServerManifest
from httplab.running.docker.compose import DEFAULT_TAG, server_image as compose_server_image
from httplab.running.jdks import DEFAULT_JDK

BASE_IMAGES_ENV = Path("scripts") / "base-images.env"
# The build args the Dockerfiles take whatever the JDK, and the variable that names each
# local image; RUNTIME_IMAGE is JDK N's, named by HTTPLAB_RUNTIME_IMAGE_<N>.
SHARED_BUILD_ARGS = {"BUILD_IMAGE": "HTTPLAB_BUILD_IMAGE", "WRK_BASE_IMAGE": "HTTPLAB_WRK_BASE_IMAGE",
                     "NGINX_IMAGE": "HTTPLAB_NGINX_IMAGE"}
RUNTIME_IMAGE_ARG = "RUNTIME_IMAGE"
BUILD_ARGS = (RUNTIME_IMAGE_ARG, *SHARED_BUILD_ARGS)
RUNTIME_IMAGE_VARIABLE = re.compile(r"HTTPLAB_RUNTIME_IMAGE_(\d+)")


def official_runtime_image(jdk: int | str) -> str:
    """servers/Dockerfile's default runtime image for JDK `jdk` (FROM eclipse-temurin:${JDK}-jre)."""
    return f"eclipse-temurin:{jdk}-jre"


# Pulled (or found) to tell whether the official images can be had.
OFFICIAL_PROBE_IMAGE = official_runtime_image(DEFAULT_JDK)


def parse_env_file(text: str) -> dict[str, str]:
    """NAME=value lines; blank lines and # comments ignored. Pure."""
    values = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def local_runtime_images(env_file_text: str) -> dict[int, str]:
    """Each JDK's local runtime image, from base-images.env's HTTPLAB_RUNTIME_IMAGE_<N>."""
    images = {}
    for name, image in parse_env_file(env_file_text).items():
        match = RUNTIME_IMAGE_VARIABLE.fullmatch(name)
        if match:
            images[int(match.group(1))] = image
    return dict(sorted(images.items()))


def local_build_args(env_file_text: str, jdk: int = DEFAULT_JDK) -> dict[str, str]:
    """RUNTIME_IMAGE=httplab/debian-jre25:trixie (JDK 25's), BUILD_IMAGE and the rest, from
    base-images.env; ValueError naming what it lacks."""
    names = parse_env_file(env_file_text)
    missing = [variable for variable in SHARED_BUILD_ARGS.values() if variable not in names]
    if missing:
        raise ValueError(f"{BASE_IMAGES_ENV} lacks {', '.join(missing)}")
    runtime = local_runtime_images(env_file_text)
    if jdk not in runtime:
        offered = ", ".join(str(n) for n in runtime) or "none"
        raise ValueError(f"{BASE_IMAGES_ENV} names no local runtime image for JDK {jdk} "
                         f"(HTTPLAB_RUNTIME_IMAGE_{jdk}; it has JDK {offered})")
    return {RUNTIME_IMAGE_ARG: runtime[jdk],
            **{arg: names[variable] for arg, variable in SHARED_BUILD_ARGS.items()}}


def image_tag(manifest: ServerManifest, jdk: int = DEFAULT_JDK) -> str:
    """A JVM server's image is JDK `jdk`'s, tagged jdk25; a server that runs no JVM (the
    nginx reference) has one image whatever the JDK, tagged latest."""
    return f"jdk{jdk}" if manifest.is_maven_module else DEFAULT_TAG


def server_image(manifest: ServerManifest, jdk: int = DEFAULT_JDK) -> str:
    """The image the server runs on JDK `jdk`: httplab/netty:jdk25, httplab/nginx:latest."""
    return compose_server_image(manifest.name, image_tag(manifest, jdk))
