"""Which base images the Dockerfiles get: the official ones, or local ones made from
Debian packages by scripts/base-images.sh where no registry can be reached."""

from __future__ import annotations

from pathlib import Path

BASE_IMAGES_ENV = Path("scripts") / "base-images.env"
# The build args the Dockerfiles take, and the variable that names each local image.
BUILD_ARGS = {"BUILD_IMAGE": "HTTPLAB_BUILD_IMAGE", "RUNTIME_IMAGE": "HTTPLAB_RUNTIME_IMAGE",
              "WRK_BASE_IMAGE": "HTTPLAB_WRK_BASE_IMAGE", "NGINX_IMAGE": "HTTPLAB_NGINX_IMAGE"}
OFFICIAL_PROBE_IMAGE = "eclipse-temurin:21-jre"


def parse_env_file(text: str) -> dict[str, str]:
    """NAME=value lines; blank lines and # comments ignored. Pure."""
    values = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def local_build_args(env_file_text: str) -> dict[str, str]:
    """BUILD_IMAGE=httplab/debian-maven:bookworm and the rest, from base-images.env."""
    names = parse_env_file(env_file_text)
    missing = [variable for variable in BUILD_ARGS.values() if variable not in names]
    if missing:
        raise ValueError(f"{BASE_IMAGES_ENV} lacks {', '.join(missing)}")
    return {arg: names[variable] for arg, variable in BUILD_ARGS.items()}
