"""One Dockerfile, servers/Dockerfile, builds every Maven server (its folder name is the
SERVER build arg); a folder that brings its own Dockerfile is built with that one. No
folder may hold a copy of the shared recipe, so a fix made to it cannot miss a server."""

import re
from difflib import SequenceMatcher
from pathlib import Path

from httplab.running.docker.compose import dockerfile_for
from httplab.running.backends.docker import DockerBackend
from httplab.paths import ASYNC_PROFILER_LIB, OHA_IN_REPO, SERVERS, servers_dir
from httplab.running.base_images import official_runtime_image


COPY_SIMILARITY = 0.8  # share of instructions in common from which a Dockerfile is a copy
GRADLE_RECIPE = """FROM gradle:8-jdk21 AS build
COPY grizzly/ /src/
RUN gradle -p /src shadowJar
FROM eclipse-temurin:21-jre
COPY --from=build /src/build/libs/grizzly-all.jar /app/server.jar
COPY grizzly/server.toml /app/server.toml
USER 10001:10001
ENTRYPOINT ["java", "-jar", "/app/server.jar"]
"""


def _instructions(text: str, server: str | None = None) -> list[str]:
    """The recipe's instructions, comments, blank lines and the SERVER argument's own
    lines left out, the server's name written as ${SERVER}: a copy with the name baked in
    reads the same as the shared recipe."""
    if server:
        text = text.replace(server, "${SERVER}")
    text = text.replace('"', "").replace("${SERVER}", "$SERVER").replace("$SERVER", "${SERVER}")
    lines = [line.strip() for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("#")
            and line != "ARG SERVER" and not line.startswith("RUN test -n")]


def _is_copy_of_shared(own: Path, shared: Path) -> bool:
    """Nearly the same instructions: a copy that has since drifted a little still counts."""
    matcher = SequenceMatcher(a=_instructions(own.read_text(), own.parent.name),
                              b=_instructions(shared.read_text()), autojunk=False)
    return matcher.ratio() >= COPY_SIMILARITY


def test_no_server_folder_holds_a_copy_of_the_shared_dockerfile(repo):
    shared = servers_dir(repo) / "Dockerfile"
    copies = [str(own) for own in servers_dir(repo).glob("*/Dockerfile")
              if _is_copy_of_shared(own, shared)]
    assert copies == [], f"delete these copies of servers/Dockerfile: {copies}"


def test_a_drifted_copy_with_the_name_baked_in_is_caught_and_another_recipe_is_not(
        repo, tmp_path):
    shared = servers_dir(repo) / "Dockerfile"
    baked = shared.read_text().replace('"$SERVER', '"netty').replace("${SERVER}", "netty")
    drifted = baked.replace("ARG SERVER\n", "").replace("USER 10001", "EXPOSE 8080\nUSER 10001")
    for name, recipe in (("netty", drifted), ("grizzly", GRADLE_RECIPE)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "Dockerfile").write_text(recipe)
    assert _is_copy_of_shared(tmp_path / "netty" / "Dockerfile", shared)
    assert not _is_copy_of_shared(tmp_path / "grizzly" / "Dockerfile", shared)


def test_every_discovered_server_gets_a_dockerfile_that_can_build_it(repo, manifests):
    for manifest in manifests:
        chosen = dockerfile_for(servers_dir(repo), manifest.name)
        folder = servers_dir(repo) / manifest.name
        if chosen == servers_dir(repo) / "Dockerfile":
            # The shared recipe copies <name>/target/<name>.jar and <name>/server.toml.
            assert f"<finalName>{manifest.name}</finalName>" in (folder / "pom.xml").read_text()
            assert (folder / "server.toml").is_file()
        else:
            assert chosen == folder / "Dockerfile"


def test_a_folder_with_its_own_dockerfile_is_built_with_it(tmp_path):
    servers = servers_dir(tmp_path)
    for folder in ("own", "shared"):
        (servers / folder).mkdir(parents=True)
    (servers / "Dockerfile").write_text("FROM scratch\n")
    (servers / "own" / "Dockerfile").write_text("FROM busybox\n")
    assert dockerfile_for(servers, "own") == servers / "own" / "Dockerfile"
    assert dockerfile_for(servers, "shared") == servers / "Dockerfile"
    backend = DockerBackend(tmp_path)
    assert backend.server_environment("own") == \
        {"HTTPLAB_SERVER": "own", "HTTPLAB_DOCKERFILE": "own/Dockerfile"}
    assert backend.server_environment("shared") == \
        {"HTTPLAB_SERVER": "shared", "HTTPLAB_DOCKERFILE": "Dockerfile"}


def test_the_shared_dockerfile_keeps_the_recipes_promises(repo):
    text = (servers_dir(repo) / "Dockerfile").read_text()
    assert "FROM ${BUILD_IMAGE:-maven:3.9-eclipse-temurin-25} AS build" in text
    # The runtime's JDK is a build arg; official_runtime_image names the same image.
    assert "FROM ${RUNTIME_IMAGE:-" + official_runtime_image("${JDK}") + "}" in text
    assert text.count("ARG JDK") == 2  # declared before FROM, and in the runtime stage
    assert text.count("ARG SERVER") == 2  # one per stage: an ARG ends with its stage
    assert "COPY ${SERVER}/server.toml /app/server.toml" in text
    assert "USER 10001:10001" in text
    assert 'ENTRYPOINT ["/bin/sh", "-c", "exec java $JAVA_OPTS -jar /app/server.jar"]' in text


def test_jar_source_host_copies_what_make_jars_built_and_the_context_lets_it_through(repo):
    """make test builds the server images from the host's jars (JAR_SOURCE=host), make
    bench in the image (the default): the context must carry the jar and the agent, and
    the recipe must check both are there in either case."""
    agent = ASYNC_PROFILER_LIB.relative_to(SERVERS).as_posix()
    ignore = (servers_dir(repo) / ".dockerignore").read_text().splitlines()
    assert "!*/target/*.jar" in ignore and f"!{agent}" in ignore
    recipe = (servers_dir(repo) / "Dockerfile").read_text()
    assert f'"$SERVER/target/$SERVER.jar" {agent}; do' in recipe
    assert 'case "${JAR_SOURCE:-maven}" in maven|host)' in recipe
    makefile = (repo / "Makefile").read_text()
    assert re.search(r"^\tcd loadgen && JAR_SOURCE=host .* -m pytest ", makefile, re.MULTILINE)
    assert makefile.count("JAR_SOURCE=host") == 2  # the test recipe and its comment


def test_the_wrk_image_copies_only_what_its_build_context_lets_through(repo):
    """loadgen/.dockerignore lets through named files only: each COPY source must be one
    (a COPY --from copies out of a build stage, not the context). The one source written as
    a pattern ([s]) is the folder that holds the host's oha, which may be missing: the
    pattern then matches nothing, where a plain name would fail the build (the pattern
    sits on the folder, as BuildKit needs the folder above a wildcard to exist), and
    .dockerignore lets only the oha binary through it."""
    loadgen = repo / "loadgen"
    allowed = {line[1:].strip() for line in (loadgen / ".dockerignore").read_text().splitlines()
               if line.startswith("!")}
    sources = [source for line in (loadgen / "Dockerfile").read_text().splitlines()
               if line.startswith("COPY ") and not line.startswith("COPY --from=")
               for source in line.split()[1:-1]]
    optional = [re.sub(r"\[(.)\]", r"\1", source) for source in sources if "[" in source]
    required = [source for source in sources if "[" not in source]
    oha = (repo / OHA_IN_REPO).relative_to(loadgen).as_posix()
    [folder] = optional
    assert oha.startswith(folder + "/") and "/" not in folder
    assert [name for name in allowed if name.startswith(folder + "/")] == [oha]
    assert "fairness.sh" in required and "done.lua" in required and "cpu-times.sh" in required
    assert [source for source in required if source not in allowed] == []
    assert all((loadgen / source).exists() for source in required)
    assert (loadgen / "fairness.sh").stat().st_mode & 0o111, "its entrypoint must be executable"
    assert (loadgen / "cpu-times.sh").stat().st_mode & 0o111, "every tool's entrypoint"
