"""The server Dockerfiles are one recipe: each differs from the others only by its
server's name, so a fix made to one cannot silently miss the rest."""

from httplab.paths import servers_dir


def test_every_server_dockerfile_is_the_same_recipe(repo, manifests):
    recipes = {m.name: (servers_dir(repo) / m.name / "Dockerfile").read_text().replace(m.name, "SERVER")
               for m in manifests}
    reference = recipes.pop("netty")
    assert "SERVER/pom.xml" in reference
    for name, recipe in recipes.items():
        assert recipe == reference, f"servers/{name}/Dockerfile differs from servers/netty/Dockerfile"


def test_dockerfiles_take_base_images_as_build_args_and_run_as_non_root(repo, manifests):
    for manifest in manifests:
        text = (servers_dir(repo) / manifest.name / "Dockerfile").read_text()
        assert "FROM ${BUILD_IMAGE:-maven:3.9-eclipse-temurin-21} AS build" in text
        assert "FROM ${RUNTIME_IMAGE:-eclipse-temurin:21-jre}" in text
        assert "USER 10001:10001" in text
