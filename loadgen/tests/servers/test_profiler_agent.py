"""PROFILE=1's tools where the servers run: async-profiler's linux-x64 agent, its version
said once (servers/pom.xml), unpacked by `make jars` where paths.ASYNC_PROFILER_LIB says
and copied into every Maven server's image at $ASYNC_PROFILER_LIB, beside the
distribution's jattach (the host's is in scripts/host-packages.txt, test_host_packages)."""

from __future__ import annotations

import re
import subprocess
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path, PurePosixPath

import pytest

from httplab.paths import ASYNC_PROFILER_LIB, SERVERS, servers_dir
from httplab.running.backends.docker import DockerBackend

from tests.docker_support import IN_CI, default_server_image, engine_problem, require

POM = {"m": "http://maven.apache.org/POM/4.0.0"}
VERSION_PROPERTY = "async-profiler.version"
AGENT_ENV = "ASYNC_PROFILER_LIB"
ELF_MAGIC, X86_64 = b"\x7fELF", 62  # e_machine of x86-64, at byte 18 of an ELF header


def _poms(repo: Path) -> list[Path]:
    return [pom for pom in servers_dir(repo).rglob("pom.xml") if "target" not in pom.parts]


def _profiler_items(pom_text: str) -> list[ElementTree.Element]:
    """Every dependency or unpacked artifact that names async-profiler."""
    root = ElementTree.fromstring(pom_text)
    return [item for tag in ("dependency", "artifactItem")
            for item in root.iter(f"{{{POM['m']}}}{tag}")
            if item.findtext("m:artifactId", namespaces=POM) == "async-profiler"]


def unpacked_agent(pom_text: str, module: PurePosixPath) -> PurePosixPath | None:
    """Where the module's build unpacks the agent, relative to the repository: its
    outputDirectory (under ${project.build.directory}) joined with the one file it keeps."""
    root = ElementTree.fromstring(pom_text)
    for execution in root.iter(f"{{{POM['m']}}}execution"):
        items = [item for item in execution.iter(f"{{{POM['m']}}}artifactItem")
                 if item.findtext("m:artifactId", namespaces=POM) == "async-profiler"]
        output = execution.findtext(".//m:outputDirectory", namespaces=POM)
        if items and output and output.startswith("${project.build.directory}/"):
            target = module / "target" / output.removeprefix("${project.build.directory}/")
            return target / items[0].findtext("m:includes", namespaces=POM)
    return None


def runtime_stage(dockerfile: str) -> str:
    """The Dockerfile's last stage, from its FROM on."""
    return dockerfile[dockerfile.rindex("\nFROM "):]


def test_the_version_is_a_property_of_the_parent_pom_alone(repo):
    parent = servers_dir(repo) / "pom.xml"
    stated = [pom for pom in _poms(repo) if f"<{VERSION_PROPERTY}>" in pom.read_text()]
    assert stated == [parent]
    version = ElementTree.parse(parent).findtext(f"m:properties/m:{VERSION_PROPERTY}",
                                                 namespaces=POM)
    assert re.fullmatch(r"\d+(\.\d+)+", version or ""), version


def test_every_use_of_async_profiler_takes_the_property_and_linux_x64(repo):
    items = [item for pom in _poms(repo) for item in _profiler_items(pom.read_text())]
    assert items, "servers/common/pom.xml should unpack async-profiler"
    for item in items:
        assert item.findtext("m:groupId", namespaces=POM) == "tools.profiler"
        assert item.findtext("m:version", namespaces=POM) == f"${{{VERSION_PROPERTY}}}"
        assert item.findtext("m:classifier", namespaces=POM) == "linux-x64"


def test_paths_names_the_file_common_unpacks(repo):
    common = servers_dir(repo) / "common"
    module = PurePosixPath(SERVERS.as_posix(), "common")
    assert unpacked_agent((common / "pom.xml").read_text(), module) == \
        PurePosixPath(ASYNC_PROFILER_LIB.as_posix())


@pytest.mark.parametrize("output, includes, expected", [
    ("${project.build.directory}/async-profiler", "linux-x64/libasyncProfiler.so",
     "servers/common/target/async-profiler/linux-x64/libasyncProfiler.so"),
    ("${project.build.directory}/ap", "linux-x64/libasyncProfiler.so",
     "servers/common/target/ap/linux-x64/libasyncProfiler.so"),
    ("/elsewhere", "linux-x64/libasyncProfiler.so", None),
])
def test_unpacked_agent_reads_the_output_directory_and_the_kept_file(output, includes, expected):
    pom = f"""<project xmlns="{POM['m']}"><build><plugins><plugin><executions><execution>
      <configuration><artifactItems><artifactItem><artifactId>async-profiler</artifactId>
      <includes>{includes}</includes></artifactItem></artifactItems>
      <outputDirectory>{output}</outputDirectory></configuration>
    </execution></executions></plugin></plugins></build></project>"""
    found = unpacked_agent(pom, PurePosixPath("servers/common"))
    assert found == (PurePosixPath(expected) if expected else None)


def test_the_images_carry_jattach_and_the_agent_at_a_fixed_path(repo):
    dockerfile = (servers_dir(repo) / "Dockerfile").read_text()
    runtime = runtime_stage(dockerfile)
    install = re.search(r"apt-get install -y --no-install-recommends jattach;", runtime)
    assert install and "rm -rf /var/lib/apt/lists/*" in runtime
    assert install.start() < runtime.index("USER 10001:10001"), "apt-get needs root"
    assert re.search(rf"^ENV {AGENT_ENV}=/\S+/libasyncProfiler\.so$", runtime, re.MULTILINE)
    source = "/build/" + ASYNC_PROFILER_LIB.relative_to(SERVERS).as_posix()
    assert f"COPY --from=build {source} ${{{AGENT_ENV}}}\n" in runtime
    assert VERSION_PROPERTY not in dockerfile and "async-profiler:" not in dockerfile


@pytest.mark.parametrize("doc", ["servers.md", "docker.md"])
def test_the_docs_state_the_poms_version(repo, doc):
    version = ElementTree.parse(servers_dir(repo) / "pom.xml").findtext(
        f"m:properties/m:{VERSION_PROPERTY}", namespaces=POM)
    text = (repo / "docs" / doc).read_text()
    assert f"async-profiler {version}" in text and "jattach" in text
    assert not re.search(rf"async-profiler (?!{re.escape(version)}\b)\d", text)


def test_make_jars_leaves_an_x86_64_agent(repo):
    agent = repo / ASYNC_PROFILER_LIB
    if not agent.is_file():
        if IN_CI:
            pytest.fail(f"{ASYNC_PROFILER_LIB} missing after make jars")
        pytest.skip(f"{ASYNC_PROFILER_LIB} not built yet: make jars")
    header = agent.read_bytes()[:20]
    assert header[:4] == ELF_MAGIC
    assert int.from_bytes(header[18:20], "little") == X86_64


@pytest.mark.docker
@pytest.mark.slow
def test_jattach_loads_the_agent_into_a_running_image(repo, manifests):
    """The harness's way in: docker exec as the image's user, java as PID 1."""
    require(engine_problem())
    netty = next(m for m in manifests if m.name == "netty")
    backend = DockerBackend(repo)
    backend.check_available()
    backend.prepare((netty,))
    started = subprocess.run(["docker", "run", "-d", "--network", "none",
                              default_server_image("netty")], capture_output=True, text=True,
                             timeout=60)
    assert started.returncode == 0, started.stderr
    container = started.stdout.strip()
    try:
        _wait_for_ready_line(container, 60)
        check = subprocess.run(
            ["docker", "exec", container, "sh", "-c",
             f'jattach 1 load "${AGENT_ENV}" true check,event=itimer'],
            capture_output=True, text=True, timeout=60)
        assert "return code: 0" in check.stdout, check.stdout + check.stderr
    finally:
        subprocess.run(["docker", "rm", "-f", container], capture_output=True, timeout=60)


def _wait_for_ready_line(container: str, wait_s: float) -> None:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        logs = subprocess.run(["docker", "logs", container], capture_output=True, text=True,
                              timeout=30)
        if "httplab-ready" in logs.stdout + logs.stderr:
            return
        time.sleep(0.5)
    pytest.fail(f"no httplab-ready line within {wait_s} s:\n{logs.stdout}{logs.stderr}")
