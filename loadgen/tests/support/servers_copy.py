"""A scratch copy of the lab's servers (their manifests and poms) and README, for the tests
that change them."""

from __future__ import annotations

import shutil
from pathlib import Path

from httplab.paths import servers_dir


def copy_of_servers(repo: Path, tmp_path: Path) -> Path:
    """The manifests, poms and README of the lab, in a scratch repository."""
    for path in [*servers_dir(repo).glob("*/server.toml"), *servers_dir(repo).glob("*/pom.xml"),
                 servers_dir(repo) / "pom.xml", repo / "README.md"]:
        target = tmp_path / path.relative_to(repo)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return tmp_path
