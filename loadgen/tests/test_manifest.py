"""The servers' manifests: discovery of the servers (the Maven modules with a server.toml,
and the reference), each field checked with one line naming its file, versions resolved
from the poms, the blocking pool's size, and display names kept apart."""

import re

import pytest

from httplab.manifest import (ManifestError, PomFile, check_display_names, check_module, discover,
                              parse_manifest, pom_modules)
from httplab.paths import servers_dir

from tests.support.servers_copy import copy_of_servers

SOURCE = "servers/foo/server.toml"
MAVEN_NS = 'xmlns="http://maven.apache.org/POM/4.0.0"'
MODULE_POM = PomFile("servers/foo/pom.xml", f"""<project {MAVEN_NS}>
  <properties><foo.version>2.0.1</foo.version><bad.version>${{other}}</bad.version></properties>
</project>""")
PARENT_POM = PomFile("servers/pom.xml", f"""<project {MAVEN_NS}>
  <modules><module>common</module><module>foo</module></modules>
  <properties><foo.version>1.0</foo.version><shared.version>3.1</shared.version></properties>
</project>""")
POMS = (MODULE_POM, PARENT_POM)
GOOD = """display_name = "Foo"
framework = "Foo"
# A comment, as the real manifests have.
version_property = "foo.version"
version_artifact = "org.foo:foo-core"
workers = "cpus"
worker_kind = "event loops"
default_workers = "2 * cpus"
default_workers_source = "the test's own"
blocking_pool = "10 * cpus"
blocking_pool_source = "the test's own"
blocking_pool_kind = "elastic threads"
blocking_thread_prefix = "foo-blocking-"
endpoints_source = "https://foo.example/docs"
db_pool = 10
db_pool_source = "the test's own"
db_driver = "the test's own"
framework_packages = "httplab.test"
transports = "epoll,nio,io_uring"
transports_source = "the test's own"
server_header = "Foo"
port = 8080
path = "/"
jvm_options = ""
jdks = "17,21,25"
jdks_source = "the test's own"
executors = "pool,virtual"
executors_source = "the test's own"
"""


def manifest_text(key: str, line: str | None) -> str:
    """GOOD with key's line replaced by line (dropped when None; appended when new)."""
    lines = [text for text in GOOD.splitlines() if not text.startswith(key + " ")]
    return "\n".join(lines + ([line] if line is not None else [])) + "\n"


def test_the_servers_are_the_maven_modules_with_a_manifest_and_the_reference(repo, manifests):
    servers = servers_dir(repo)
    modules = pom_modules(PomFile("servers/pom.xml", (servers / "pom.xml").read_text()))
    folders = {path.parent.name for path in servers.glob("*/server.toml")}
    assert {m.name for m in manifests if m.is_maven_module} == \
        {name for name in folders if name in modules}
    assert {m.name for m in manifests if not m.is_reference} == \
        {"armeria", "helidon", "netty", "tomcat", "undertow", "vertx", "webflux"}
    assert [(m.name, m.is_maven_module) for m in manifests if m.is_reference] == [("nginx", False)]


def test_known_servers_keep_the_original_worker_settings_and_versions(manifests):
    by_name = {m.name: m for m in manifests}
    assert by_name["armeria"].workers == 16
    assert by_name["undertow"].workers == 200
    assert by_name["webflux"].workers == 8
    assert by_name["netty"].workers == "cpus" and by_name["vertx"].workers == "cpus"
    assert by_name["undertow"].label == "Undertow (200 workers)"
    assert by_name["tomcat"].version == by_name["webflux"].version  # one spring-boot-4.version
    assert by_name["undertow"].version.startswith("3.5.")  # Boot 4 has no Undertow
    assert all(re.fullmatch(r"\d+\.\d+\.\d+(\.Final)?", m.version) for m in manifests)


@pytest.mark.parametrize("key, line, message", [
    ("path", "path = [", "not valid TOML: "),
    ("display_name", None, "display_name: missing (a non-empty string)"),
    ("framework", 'framework = ""', "framework: must be a non-empty string"),
    ("server_header", "server_header = 3", "server_header: 3 is not a string"),
    ("port", None, "port: missing (an integer from 1 to 65535)"),
    ("port", "port = 70000", "port: 70000 is not a port (1-65535)"),
    ("port", "port = 0", "port: 0 is not a port (1-65535)"),
    ("port", 'port = "8080"', "port: '8080' is not a port (1-65535)"),
    ("port", "port = true", "port: True is not a port (1-65535)"),
    ("workers", None, 'workers: missing (a count, or "cpus")'),
    ("workers", "workers = 0", 'workers: 0 is not a positive integer or "cpus"'),
    ("workers", 'workers = "many"', "workers: 'many' is not a positive integer or \"cpus\""),
    ("path", 'path = "plaintext"', "path: 'plaintext' must start with \"/\""),
    ("version", 'version = "1.0"', "version, version_property: give exactly one"),
    ("version_property", None, "version_property: missing: name the Maven property"),
    ("version_property", 'version_property = "nope.version"',
     "version_property: nope.version is not a property in servers/foo/pom.xml or servers/pom.xml"),
    ("version_property", 'version_property = "bad.version"',
     "version_property: bad.version is '${other}' in servers/foo/pom.xml, not a literal version"),
    ("version_artifact", None, "version_artifact: missing: with version_property"),
    ("version_artifact", 'version_artifact = "foo"', "version_artifact: 'foo' is not \"group:artifact\""),
    ("wrokers", "wrokers = 2", "wrokers: not a manifest key"),
    ("role", 'role = "baseline"', "role: 'baseline' is not one of 'framework', 'reference'"),
    ("role", "role = 1", "role: 1 is not one of 'framework', 'reference'"),
    ("blocking_pool", None, 'blocking_pool: missing (the most threads of the pool /blocking '
                            'runs on: a count, an expression over the CPUs such as "10 * cpus", '
                            'or "workers")'),
    ("blocking_pool", "blocking_pool = 0", "blocking_pool: 0 is not the most threads"),
    ("blocking_pool", "blocking_pool = true", "blocking_pool: True is not the most threads"),
    ("blocking_pool", 'blocking_pool = ""', "blocking_pool: '' is not the most threads"),
    ("blocking_pool", 'blocking_pool = "10 * threads"',
     "blocking_pool: '10 * threads': only whole numbers, cpus, +, * and max()/min()"),
    ("blocking_pool", 'blocking_pool = "cpus -"', "blocking_pool: 'cpus -' is not an expression"),
    ("blocking_pool_source", None, "blocking_pool_source: missing (where the framework "
                                   "documents that pool and its size)"),
    ("blocking_pool_source", 'blocking_pool_source = " "',
     "blocking_pool_source: must be a non-empty string"),
    ("blocking_pool_kind", None, "blocking_pool_kind: missing (what the pool's threads are)"),
    ("blocking_pool_kind", "blocking_pool_kind = 3", "blocking_pool_kind: 3 is not a string"),
    ("blocking_thread_prefix", None, "blocking_thread_prefix: missing (how the pool threads' "
                                     "names start, 1 to 15 characters)"),
    ("blocking_thread_prefix", 'blocking_thread_prefix = ""',
     "blocking_thread_prefix: must be a non-empty string"),
    ("blocking_thread_prefix", 'blocking_thread_prefix = "boundedElastic-1"',
     "blocking_thread_prefix: 'boundedElastic-1' is longer than the 15 characters Linux keeps"),
    ("endpoints_source", None, "endpoints_source: missing (the framework's pages that /json, "
                               "/delay and /blocking follow)"),
])
def test_a_bad_manifest_is_one_line_naming_the_file_and_the_field(key, line, message):
    with pytest.raises(ManifestError, match=re.escape(f"{SOURCE}: {message}")) as error:
        parse_manifest("foo", manifest_text(key, line), SOURCE, POMS)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("key, line, poms, version", [
    ("version_property", 'version_property = "foo.version"', POMS, "2.0.1"),  # module first
    ("version_property", 'version_property = "shared.version"', POMS, "3.1"),  # then parent
    ("version_property", 'version_property = "foo.version"',
     (PomFile("servers/foo/pom.xml", None), PARENT_POM), "1.0"),  # no module pom
    ("version_property", 'version_property = "foo.version"',
     (PomFile("p.xml", "<project><properties><foo.version> 9 </foo.version></properties></project>"),),
     "9"),  # a pom without the Maven namespace
])
def test_version_property_resolves_from_the_module_pom_then_the_parent(key, line, poms, version):
    assert parse_manifest("foo", manifest_text(key, line), SOURCE, poms).version == version


def test_a_literal_version_serves_a_framework_built_without_maven():
    text = manifest_text("version_property", 'version = "7.1"').replace("version_artifact", "#")
    manifest = parse_manifest("foo", text, SOURCE)
    assert manifest.version == "7.1" and manifest.version_artifact == ""


def without_blocking_pool(text: str) -> str:
    """A reference has no /delay, /blocking or /db, so no pools and no endpoints' sources;
    it is no JVM, so no packages to profile, no JDKs, no executors and no transport choice."""
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(("blocking_", "endpoints_source", "db_",
                                             "framework_packages", "jdks",
                                             "executors", "transports_source"))) + "\n"


REFERENCE = without_blocking_pool(
    manifest_text("version_property", 'version = "1.22.1"\nrole = "reference"')
    .replace("version_artifact", "#"))


def test_a_manifest_is_a_framework_unless_its_role_says_reference():
    framework = parse_manifest("foo", GOOD, SOURCE, POMS)
    assert framework.role == "framework" and not framework.is_reference
    assert framework.is_maven_module
    reference = parse_manifest("foo", REFERENCE, SOURCE)
    assert reference.role == "reference" and reference.is_reference
    assert not reference.is_maven_module and reference.version == "1.22.1"
    built = parse_manifest("foo", without_blocking_pool(GOOD) + 'role = "reference"\n', SOURCE,
                           POMS)
    assert built.is_reference and built.is_maven_module  # names a Maven artifact


@pytest.mark.parametrize("key", ["blocking_pool", "blocking_pool_source", "blocking_pool_kind",
                                 "blocking_thread_prefix", "endpoints_source"])
def test_a_reference_has_no_blocking_pool_nor_endpoint_sources(key):
    text = REFERENCE.replace("#", f'{key} = "4"\n#', 1)
    message = f"{SOURCE}: {key}: not for a reference, which has no /delay or /blocking endpoint"
    with pytest.raises(ManifestError, match=f"^{re.escape(message)}$"):
        parse_manifest("foo", text, SOURCE)


@pytest.mark.parametrize("key", ["jdks", "jdks_source"])
def test_a_reference_has_no_jdks(key):
    text = REFERENCE + f'{key} = "17"\n'
    with pytest.raises(ManifestError, match=f"^{SOURCE}: {key}: not for a reference, which has no JVM$"):
        parse_manifest("foo", text, SOURCE)


@pytest.mark.parametrize("line, message", [
    (None, "jdks: missing (the JDKs it runs on, of 17, 21, 25, comma-separated)"),
    ('jdks = "17,18"', "jdks: '18' is not a JDK the lab offers (17, 21, 25)"),
    ('jdks = ""', "jdks: must be a non-empty string"),
])
def test_a_framework_says_which_jdks_it_runs_on(line, message):
    with pytest.raises(ManifestError, match=f"^{SOURCE}: {re.escape(message)}"):
        parse_manifest("foo", manifest_text("jdks", line), SOURCE, POMS)


def test_a_jdk_the_framework_does_not_run_on_is_not_applicable_with_its_reason():
    helidon = parse_manifest("foo", manifest_text("jdks", 'jdks = "21,25"'), SOURCE, POMS)
    assert helidon.on_axis("JDK", "25", 2).not_applicable == ""
    reason = helidon.on_axis("JDK", "17", 2).not_applicable
    assert reason == "Foo 2.0.1 runs on JDK 21 and 25 only, not 17 (the test's own)"


def test_beyond_write_up_is_true_or_false():
    assert parse_manifest("foo", GOOD + "beyond_write_up = true\n", SOURCE, POMS).beyond_write_up
    assert not parse_manifest("foo", GOOD, SOURCE, POMS).beyond_write_up
    with pytest.raises(ManifestError, match="beyond_write_up: 'yes' is not true or false"):
        parse_manifest("foo", GOOD + 'beyond_write_up = "yes"\n', SOURCE, POMS)


@pytest.mark.parametrize("key", ["db_pool", "db_pool_source", "db_driver"])
def test_a_reference_has_no_database_pool(key):
    text = REFERENCE.replace("#", f'{key} = "4"\n#', 1)
    message = f"{SOURCE}: {key}: not for a reference, which has no /db or /queries endpoint"
    with pytest.raises(ManifestError, match=f"^{re.escape(message)}$"):
        parse_manifest("foo", text, SOURCE)


@pytest.mark.parametrize("line, problem", [
    (None, "db_pool: missing (the database connection pool's size, a count)"),
    ("db_pool = 0", "db_pool: 0 is not the database connection pool's size, a count"),
    ('db_pool = "10"', "db_pool: '10' is not the database connection pool's size, a count"),
])
def test_a_framework_states_its_database_pool_as_a_count(line, problem):
    text = "\n".join(l for l in GOOD.splitlines() if not l.startswith("db_pool =")) + "\n"
    if line:
        text += line + "\n"
    with pytest.raises(ManifestError, match=f"^{re.escape(SOURCE + ': ' + problem)}$"):
        parse_manifest("foo", text, SOURCE, POMS)


@pytest.mark.parametrize("pool, workers, setting, cpus, size", [
    ('"10 * cpus"', '"cpus"', "original", 4, 40),
    ('"10 * cpus"', '"cpus"', "original", None, None),  # depends on CPUs not known
    ('"max(8, cpus)"', "16", "original", 2, 8),
    ('"200"', "16", "original", None, 200),  # an expression without cpus needs none
    ("200", "16", "original", None, 200),  # a TOML integer as well
    ('"workers"', "200", "original", None, 200),  # Undertow: the worker pool itself
    ('"workers"', '"cpus"', "original", 3, 3),
    ('"workers"', '"cpus"', "original", None, None),
    ('"workers"', "200", "default", 4, 32),  # SETTINGS=default: 2 * cpus workers... see GOOD
    ('"10 * cpus"', "200", "default", 4, 40),  # other pools keep their size
])
def test_the_blocking_pool_size(pool, workers, setting, cpus, size):
    text = manifest_text("blocking_pool", f"blocking_pool = {pool}").replace(
        'workers = "cpus"', f"workers = {workers}").replace('"2 * cpus"', '"8 * cpus"')
    manifest = parse_manifest("foo", text, SOURCE, POMS).for_setting(setting, cpus)
    assert manifest.blocking_pool_size(cpus) == size


def test_the_reference_has_no_blocking_pool_size():
    reference = parse_manifest("foo", REFERENCE, SOURCE)
    assert reference.blocking_pool == "" and reference.blocking_pool_size(4) is None


def test_every_framework_names_its_blocking_pool_and_undertows_is_its_workers(manifests):
    frameworks = [m for m in manifests if not m.is_reference]
    assert all((m.blocking_pool_size(2) or not m.runs_pool) and m.blocking_pool_source
               and m.endpoints_source for m in frameworks)
    undertow = next(m for m in manifests if m.name == "undertow")
    assert undertow.blocking_pool == "workers" and undertow.blocking_pool_size(None) == 200
    assert undertow.for_setting("default", 2).blocking_pool_size(2) == 8 * 2


def test_a_broken_pom_names_the_pom():
    poms = (PomFile("servers/foo/pom.xml", "<project>"), PARENT_POM)
    with pytest.raises(ManifestError, match=r"^servers/foo/pom\.xml: not valid XML: "):
        parse_manifest("foo", GOOD, SOURCE, poms)


def _foo(name: str, display_name: str):
    return parse_manifest(name, manifest_text("display_name", f'display_name = "{display_name}"'),
                          f"servers/{name}/server.toml", POMS)


def test_a_server_folder_must_be_a_maven_module():
    message = ("servers/bar/server.toml: bar is not a <module> in servers/pom.xml: "
               "add <module>bar</module> there")
    with pytest.raises(ManifestError, match=f"^{re.escape(message)}$"):
        check_module("bar", "servers/bar/server.toml", pom_modules(PARENT_POM), PARENT_POM.source)
    check_module("foo", SOURCE, pom_modules(PARENT_POM), PARENT_POM.source)


def test_a_module_listed_in_a_profile_is_a_maven_module():
    parent = PomFile("servers/pom.xml", f"""<project {MAVEN_NS}>
  <modules><module>common</module></modules>
  <profiles><profile><id>java21</id><activation><jdk>[21,)</jdk></activation>
    <modules><module>foo</module></modules></profile></profiles>
</project>""")
    assert pom_modules(parent) == ("common", "foo")
    check_module("foo", SOURCE, pom_modules(parent), parent.source)


def test_two_servers_cannot_share_a_display_name():
    manifests = (_foo("foo", "Foo"), _foo("common", "Foo"))
    sources = {m.name: f"servers/{m.name}/server.toml" for m in manifests}
    message = ("servers/common/server.toml: display_name: 'Foo' is also the display name "
               "in servers/foo/server.toml")
    with pytest.raises(ManifestError, match=f"^{re.escape(message)}$"):
        check_display_names(manifests, sources)


def test_discover_refuses_a_server_folder_maven_does_not_build(repo, tmp_path):
    lab = copy_of_servers(repo, tmp_path)
    (lab / "servers" / "extra").mkdir()
    netty = (lab / "servers" / "netty" / "server.toml").read_text()
    (lab / "servers" / "extra" / "server.toml").write_text(netty.replace('"Netty"\nframework', '"X"\nframework'))
    with pytest.raises(ManifestError, match=r"^servers/extra/server\.toml: extra is not a <module>"):
        discover(lab / "servers")


def test_discover_takes_a_reference_that_maven_does_not_build(repo, tmp_path):
    lab = copy_of_servers(repo, tmp_path)
    (lab / "servers" / "ref").mkdir()
    (lab / "servers" / "ref" / "server.toml").write_text(
        REFERENCE.replace('display_name = "Foo"', 'display_name = "Ref"'))
    found = {m.name: m for m in discover(lab / "servers")}
    assert found["ref"].is_reference and not found["ref"].is_maven_module
    assert {name for name, m in found.items() if not m.is_reference} == \
        {"armeria", "helidon", "netty", "tomcat", "undertow", "vertx", "webflux"}


def test_discover_refuses_a_reference_built_by_maven_that_is_no_module(repo, tmp_path):
    lab = copy_of_servers(repo, tmp_path)
    (lab / "servers" / "ref").mkdir()
    netty = (lab / "servers" / "netty" / "server.toml").read_text()
    (lab / "servers" / "ref" / "server.toml").write_text(
        netty.replace('"Netty"\nframework', '"Ref"\nframework') + 'role = "reference"\n')
    with pytest.raises(ManifestError, match=r"^servers/ref/server\.toml: ref is not a <module>"):
        discover(lab / "servers")
