"""The README's servers table: generated from the manifests, the reference last, written
between its markers and nowhere else, and the README's own table the generated one."""

import pytest

from httplab.presentation.markdown.readme_table import (END_MARKER, START_MARKER, ReadmeTableError,
                                                        readme_with_table, readme_servers_table)


def test_the_readme_table_lists_the_reference_last_and_says_it_is_not_a_framework(manifests):
    rows = readme_servers_table(manifests).splitlines()[2:]
    assert len(rows) == len(manifests)
    assert rows[-1].startswith("| nginx (ceiling reference, not a framework) | nginx | ")
    assert all("reference" not in row for row in rows[:-1])


def test_readme_servers_table_is_the_one_generated_from_the_manifests(repo, manifests):
    readme = (repo / "README.md").read_text()
    assert readme_with_table(readme, readme_servers_table(manifests)) == readme, \
        "README.md's servers table is stale: run `make servers-table`"


def test_the_table_goes_between_the_markers_and_nowhere_else():
    readme = f"intro\n{START_MARKER}\n| old |\n{END_MARKER}\nafter\n"
    assert readme_with_table(readme, "| new |\n") == f"intro\n{START_MARKER}\n| new |\n{END_MARKER}\nafter\n"
    with pytest.raises(ReadmeTableError, match="servers-table:start"):
        readme_with_table("no markers\n", "| new |\n")
