import pytest

from httplab.manifest import ManifestError, parse_manifest
from httplab.readme_table import servers_table

from .test_plan import MANIFEST

EXPECTED_SERVERS = {"netty", "armeria", "vertx", "undertow", "webflux"}


def test_the_five_servers_are_found_with_the_original_worker_settings(manifests):
    by_name = {m.name: m for m in manifests}
    assert set(by_name) == EXPECTED_SERVERS
    assert by_name["armeria"].workers == 16
    assert by_name["undertow"].workers == 200
    assert by_name["webflux"].workers == 8
    assert by_name["netty"].workers == "cpus" and by_name["vertx"].workers == "cpus"
    assert by_name["undertow"].label == "Undertow (200 workers)"


@pytest.mark.parametrize("change, message", [
    ('version = "1"', "'version' must be a non-empty string", ),
    ("workers = 0", "'workers' must be a positive integer"),
    ('workers = "many"', "'workers' must be a positive integer"),
    ("port = 70000", "'port' must be an integer"),
    ("path = [", "not valid TOML"),
])
def test_bad_manifests_name_the_file(change, message):
    key = change.split(" ")[0]
    lines = [line for line in MANIFEST.splitlines() if not line.startswith(key + " ")]
    text = "\n".join(lines) + "\n" + (change if key != "version" else 'version = ""') + "\n"
    with pytest.raises(ManifestError, match=f"servers/x/server.toml: {message}"):
        parse_manifest("x", text, "servers/x/server.toml")


def test_readme_servers_table_is_the_one_generated_from_the_manifests(repo, manifests):
    readme = (repo / "README.md").read_text()
    assert servers_table(manifests) in readme, "run `make servers-table` and paste it into README.md"
