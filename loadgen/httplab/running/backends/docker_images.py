"""The docker backend's images: the base images a build starts from (the caller's, the
official ones or the local ones of `make base-images`), each server's image and wrk's built
with Compose before any load, and those sent to the other engines that run them."""

from __future__ import annotations

import os
from pathlib import Path

from httplab.manifest import ServerManifest
from httplab.paths import servers_dir
from httplab.running.backend_error import BackendError
from httplab.running.base_images import (BASE_IMAGES_ENV, BUILD_ARGS, OFFICIAL_PROBE_IMAGE,
                                         local_build_args)
from httplab.running.docker import compose as cmd
from httplab.running.docker.containers import image_reachable, run_docker
from httplab.running.docker.remote import ship_image
from httplab.running.engines import Engine

BUILD_TIMEOUT_S = 3600


def tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


class DockerImages:
    """What the images of one bench are built from, and which id each engine ran."""

    def __init__(self, repo: Path, base_images_choice: str):
        self.repo, self.base_images_choice = repo, base_images_choice
        self.build_args: dict[str, str] = {}
        self.ids: dict[str, dict[str, str]] = {}  # engine -> image -> id it ran

    def server_environment(self, server: str) -> dict[str, str]:
        """HTTPLAB_SERVER and HTTPLAB_DOCKERFILE, which make the Compose file's one server
        service this server; set always, so a stray value in the caller's shell is ignored."""
        return cmd.server_environment(server, self._dockerfile(server))

    def _dockerfile(self, server: str) -> str:
        """The server's Dockerfile, relative to the build context servers/."""
        folder = servers_dir(self.repo)
        return cmd.dockerfile_for(folder, server).relative_to(folder).as_posix()

    def build_all(self, compose: list[str], servers: tuple[ServerManifest, ...],
                  environment) -> None:
        """Each server's image (one per folder) and wrk's; environment(server) is the
        Compose command's environment with that server named."""
        self.build_args = self._resolve_base_images()
        for name in dict.fromkeys(server.name for server in servers):
            label = f"{name} (servers/{self._dockerfile(name)})"
            self._build(compose, cmd.SERVER_SERVICE, environment(name), label)
        if servers:  # Compose reads the whole file: wrk's build needs a server named too
            self._build(compose, cmd.WRK_SERVICE, environment(servers[0].name), "wrk")

    def _build(self, compose: list[str], service: str, env: dict[str, str], label: str) -> None:
        build = run_docker(cmd.build_command(compose, self.repo, service), env, BUILD_TIMEOUT_S)
        if build.returncode != 0:
            raise BackendError(f"image build failed for {label}:\n"
                               f"{tail(build.stdout + build.stderr)}")

    def _resolve_base_images(self) -> dict[str, str]:
        choice = self.base_images_choice
        if any(arg in os.environ for arg in BUILD_ARGS):
            return {arg: os.environ[arg] for arg in BUILD_ARGS if arg in os.environ}
        if choice == "official" or (choice == "auto" and image_reachable(OFFICIAL_PROBE_IMAGE)):
            return {}
        args = local_build_args((self.repo / BASE_IMAGES_ENV).read_text())
        missing = [image for image in set(args.values()) if not _image_exists(image)]
        if missing:
            raise BackendError(f"official base images cannot be pulled and local ones are "
                               f"missing ({', '.join(sorted(missing))}): run `make base-images`")
        return args

    def ship(self, wanted: list[tuple[Engine, str]]) -> None:
        """The images built here, sent to the engines that run them where they differ."""
        for engine, image in wanted:
            self.ids.setdefault(engine.spec, {})[image] = ship_image(image, engine)


def _image_exists(image: str) -> bool:
    return run_docker(["docker", "image", "inspect", image]).returncode == 0
