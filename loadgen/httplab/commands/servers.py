"""`httplab servers`: the README's servers table, from the manifests; printed, or
rewritten in place in README.md."""

from __future__ import annotations

from pathlib import Path

from httplab.manifest import discover
from httplab.paths import servers_dir
from httplab.presentation.markdown.readme_table import (ReadmeTableError, readme_servers_table,
                                                        readme_with_table)
from httplab.commands.common import EXIT_OK, EXIT_USAGE, say


def servers(repo: Path, update_readme: bool) -> int:
    table = readme_servers_table(discover(servers_dir(repo)))
    if not update_readme:
        print(table, end="")
        return EXIT_OK
    readme_path = repo / "README.md"
    readme = readme_path.read_text()
    try:
        updated = readme_with_table(readme, table)
    except ReadmeTableError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    if updated != readme:
        readme_path.write_text(updated)
    say(f"{readme_path.name}: servers table "
        f"{'rewritten' if updated != readme else 'already up to date'}")
    return EXIT_OK
