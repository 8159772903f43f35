"""Each built jar carries the framework version its manifest names, checked without
starting a JVM (the conformance check also compares the version a running server
reports). A jar not built yet skips, except under CI=true, where it fails. The nginx
reference has no jar: its manifest's version must be the one of the Debian package its
Dockerfile pins and of the host's nginx (the image's: tests/servers/test_reference_docker.py)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import zipfile

import pytest

from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.running.backends.local import HOST_NGINX

# Every manifest that names its framework's Maven artifact: a new server needs no edit here.
MANIFESTS = tuple(m for m in discover(servers_dir(DEFAULT_REPO)) if m.version_artifact)
NGINX = next(m for m in discover(servers_dir(DEFAULT_REPO)) if m.name == "nginx")
NGINX_PIN = re.compile(r"^ARG NGINX_PACKAGE_VERSION=(\S+)$", re.MULTILINE)


def nginx_version(text: str) -> str | None:
    """What `nginx -v` prints ("nginx version: nginx/1.22.1") -> "1.22.1"."""
    match = re.search(r"nginx version: nginx/(\S+)", text)
    return match.group(1) if match else None


def upstream_version(debian_version: str) -> str:
    """A Debian package version without its epoch and revision: 1.22.1-9+deb12u11 -> 1.22.1."""
    return debian_version.split(":", 1)[-1].rsplit("-", 1)[0]


def properties_value(text: str, key: str) -> str | None:
    """The value of key in a .properties text (key=value lines), or None."""
    for line in text.splitlines():
        name, equals, value = line.partition("=")
        if equals and name.strip() == key:
            return value.strip()
    return None


def manifest_value(text: str, header: str) -> str | None:
    """A header's value in a jar's META-INF/MANIFEST.MF text, or None."""
    return next((line.split(":", 1)[1].strip() for line in text.splitlines()
                 if line.startswith(header + ":")), None)


def _text(jar: zipfile.ZipFile, entry: str) -> str | None:
    return jar.read(entry).decode("utf-8") if entry in jar.namelist() else None


def _from_pom_properties(jar, group, artifact):
    """Maven's own record, in every Maven-built jar (shaded ones keep it)."""
    text = _text(jar, f"META-INF/maven/{group}/{artifact}/pom.properties")
    return text and properties_value(text, "version")


def _from_versions_registry(jar, group, artifact):
    """The version registry Netty and Armeria write (Gradle-built Armeria has no pom.properties)."""
    text = _text(jar, f"META-INF/{group}.versions.properties")
    return text and properties_value(text, f"{artifact}.version")


def _from_vertx_version_file(jar, group, artifact):
    """vertx-core's own version file; its jar has no pom.properties."""
    if (group, artifact) != ("io.vertx", "vertx-core"):
        return None
    text = _text(jar, "META-INF/vertx/vertx-version.txt")
    return text and text.strip()


def _from_spring_boot_nested_jar(jar, group, artifact):
    """Spring Boot keeps dependencies as BOOT-INF/lib/<artifact>-<version>.jar."""
    pattern = re.compile(rf"BOOT-INF/lib/{re.escape(artifact)}-(\d[^/]*)\.jar")
    for entry in jar.namelist():
        if pattern.fullmatch(entry):
            with zipfile.ZipFile(io.BytesIO(jar.read(entry))) as nested:
                return manifest_value(_text(nested, "META-INF/MANIFEST.MF") or "",
                                      "Implementation-Version")
    return None


CONVENTIONS = (_from_pom_properties, _from_versions_registry, _from_vertx_version_file,
               _from_spring_boot_nested_jar)


def version_in_jar(jar: zipfile.ZipFile, coordinate: str) -> str | None:
    group, artifact = coordinate.split(":")
    return next((version for find in CONVENTIONS if (version := find(jar, group, artifact))), None)


@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda m: m.name)
def test_the_jar_carries_the_framework_version_of_the_manifest(manifest):
    jar_path = manifest.jar_path(servers_dir(DEFAULT_REPO))
    if not jar_path.is_file():
        message = f"{jar_path} is not built: run `make jars`"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with zipfile.ZipFile(jar_path) as jar:
        found = version_in_jar(jar, manifest.version_artifact)
    assert found is not None, (f"no version of {manifest.version_artifact} found in {jar_path}; "
                               "teach tests/servers/test_versions.py where this framework "
                               "records it")
    assert found == manifest.version, (f"{jar_path} carries {manifest.version_artifact} {found}, "
                                       f"the manifest says {manifest.version}")


def test_the_nginx_image_pins_the_package_of_the_manifests_version():
    dockerfile = servers_dir(DEFAULT_REPO) / NGINX.name / "Dockerfile"
    pins = NGINX_PIN.findall(dockerfile.read_text())
    assert len(pins) == 1, f"{dockerfile}: expected one ARG NGINX_PACKAGE_VERSION=..., got {pins}"
    assert upstream_version(pins[0]) == NGINX.version, \
        f"{dockerfile} pins nginx {pins[0]}, the manifest says {NGINX.version}"


def test_the_hosts_nginx_is_the_manifests_version():
    if not HOST_NGINX.is_file():
        pytest.skip(f"{HOST_NGINX} is not installed (apt-get install nginx-light)")
    reported = subprocess.run([str(HOST_NGINX), "-v"], capture_output=True, text=True, timeout=30)
    found = nginx_version(reported.stderr + reported.stdout)
    assert found == NGINX.version, f"{HOST_NGINX} -v says {found}, the manifest says {NGINX.version}"


@pytest.mark.parametrize("text, version", [
    ("nginx version: nginx/1.22.1\n", "1.22.1"), ("nginx version: nginx/1.27.4 (Ubuntu)", "1.27.4"),
    ("bash: nginx: command not found", None)])
def test_nginx_version_reads_what_nginx_v_prints(text, version):
    assert nginx_version(text) == version


@pytest.mark.parametrize("debian, upstream", [
    ("1.22.1-9+deb12u11", "1.22.1"), ("1:1.22.1-9", "1.22.1"), ("4.1.0-3+b2", "4.1.0")])
def test_upstream_version_drops_the_epoch_and_the_debian_revision(debian, upstream):
    assert upstream_version(debian) == upstream
