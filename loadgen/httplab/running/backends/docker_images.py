"""The docker backend's images: the base images a build starts from (the caller's, the
official ones or the local ones of `make base-images`, per JDK), each server's image per
JDK (httplab/netty:jdk25) and wrk's built with Compose before any load, and those sent to
the other engines that run them."""

from __future__ import annotations

import os
from pathlib import Path

from httplab.manifest import ServerManifest
from httplab.paths import servers_dir
from httplab.running.backend_error import BackendError
from httplab.running.base_images import (BASE_IMAGES_ENV, BUILD_ARGS, OFFICIAL_PROBE_IMAGE,
                                         image_tag, local_build_args, server_image)
from httplab.running.docker import compose as cmd
from httplab.running.docker.containers import image_reachable, run_docker
from httplab.running.docker.remote import ship_image
from httplab.running.engines import Engine
from httplab.running.jdks import DEFAULT_JDK, server_jdk

BUILD_TIMEOUT_S = 3600


def tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


class DockerImages:
    """What the images of one bench are built from, and which id each engine ran."""

    def __init__(self, repo: Path, base_images_choice: str):
        self.repo, self.base_images_choice = repo, base_images_choice
        # The base images every Compose command carries (wrk's build among them): those of
        # the JDK the first JVM server runs on, so a run asks only for its own JDKs' images.
        self.build_args: dict[str, str] = {}
        self.ids: dict[str, dict[str, str]] = {}  # engine -> image -> id it ran
        self._official: bool | None = None  # can the official base images be had? asked once

    def server_environment(self, server: str) -> dict[str, str]:
        """HTTPLAB_SERVER and HTTPLAB_DOCKERFILE, which make the Compose file's one server
        service this server; set always, so a stray value in the caller's shell is ignored."""
        return cmd.server_environment(server, self._dockerfile(server))

    def image_environment(self, manifest: ServerManifest, jdk: int = DEFAULT_JDK) -> dict[str, str]:
        """The Compose variables that make the server service JDK `jdk`'s image of the
        server: its tag, and the JDK its build gets."""
        return cmd.image_environment(image_tag(manifest, jdk),
                                     jdk if manifest.is_maven_module else None)

    def _dockerfile(self, server: str) -> str:
        """The server's Dockerfile, relative to the build context servers/."""
        folder = servers_dir(self.repo)
        return cmd.dockerfile_for(folder, server).relative_to(folder).as_posix()

    def build_all(self, compose: list[str], servers: tuple[ServerManifest, ...],
                  environment) -> None:
        """Each server's image on the JDK it runs on (one per folder and JDK; one only for a
        server that runs no JVM) and wrk's; environment(server) is the Compose command's
        environment with that server named."""
        first_jdk = next((server_jdk(server) for server in servers if server.is_maven_module),
                         DEFAULT_JDK)
        self.build_args = self.base_build_args(first_jdk)
        images = {server_image(server, server_jdk(server)): server for server in servers}
        for manifest in images.values():
            self.build_server(compose, manifest, server_jdk(manifest), environment(manifest.name))
        if servers:  # Compose reads the whole file: wrk's build needs a server named too
            self._build(compose, cmd.WRK_SERVICE, environment(servers[0].name), "wrk")

    def build_server(self, compose: list[str], manifest: ServerManifest, jdk: int,
                     environment: dict[str, str]) -> str:
        """JDK `jdk`'s image of the server, built (Docker's cache makes an unchanged one
        quick); its name, e.g. httplab/netty:jdk25. environment: the Compose command's, with
        the server named."""
        label = f"{manifest.name} on JDK {jdk} (servers/{self._dockerfile(manifest.name)})"
        self._build(compose, cmd.SERVER_SERVICE,
                    {**environment, **self.base_build_args(jdk),
                     **self.image_environment(manifest, jdk)}, label)
        return server_image(manifest, jdk)

    def _build(self, compose: list[str], service: str, env: dict[str, str], label: str) -> None:
        build = run_docker(cmd.build_command(compose, self.repo, service), env, BUILD_TIMEOUT_S)
        if build.returncode != 0:
            raise BackendError(f"image build failed for {label}:\n"
                               f"{tail(build.stdout + build.stderr)}")

    def base_build_args(self, jdk: int = DEFAULT_JDK) -> dict[str, str]:
        """The base images JDK `jdk`'s builds start from: those the caller set in the
        environment, and for the others none (the Dockerfiles' official defaults) where the
        official images can be had, else the local ones of base-images.env, which must be
        present."""
        callers = {arg: os.environ[arg] for arg in BUILD_ARGS if arg in os.environ}
        if len(callers) == len(BUILD_ARGS) or self._official_images():
            return callers
        try:
            local = local_build_args((self.repo / BASE_IMAGES_ENV).read_text(), jdk)
        except ValueError as error:
            raise BackendError(str(error)) from error
        args = {**local, **callers}
        missing = [image for image in set(args.values()) if not _image_exists(image)]
        if missing:
            raise BackendError(f"official base images cannot be pulled and local ones are "
                               f"missing ({', '.join(sorted(missing))}): run `make base-images`")
        return args

    def _official_images(self) -> bool:
        """BASE_IMAGES=official, or auto and the official images can be had (asked once)."""
        if self._official is None:
            self._official = self.base_images_choice == "official" or (
                self.base_images_choice == "auto" and image_reachable(OFFICIAL_PROBE_IMAGE))
        return self._official

    def ship(self, wanted: list[tuple[Engine, str]]) -> None:
        """The images built here, sent to the engines that run them where they differ."""
        for engine, image in wanted:
            self.ids.setdefault(engine.spec, {})[image] = ship_image(image, engine)


def _image_exists(image: str) -> bool:
    return run_docker(["docker", "image", "inspect", image]).returncode == 0
