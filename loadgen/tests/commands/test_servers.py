"""`httplab servers --update-readme` (make servers-table): a stale README's servers table
rewritten, and a fresh one left as it is."""

from httplab.cli import main

from tests.support.servers_copy import copy_of_servers


def test_make_servers_table_rewrites_a_stale_readme_and_then_leaves_it(repo, tmp_path, capsys):
    lab = copy_of_servers(repo, tmp_path)
    readme = lab / "README.md"
    fresh = readme.read_text()
    readme.write_text(fresh.replace("| Netty | Netty |", "| Netty | Stale |"))
    assert main(["--repo", str(lab), "servers", "--update-readme"]) == 0
    assert readme.read_text() == fresh
    assert main(["--repo", str(lab), "servers", "--update-readme"]) == 0
    assert readme.read_text() == fresh
    assert "already up to date" in capsys.readouterr().err
