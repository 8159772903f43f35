"""Every doc with a contents list (the README and docs/*.md: links to its own headings
before its first `## `) lists each of its `## ` sections, and links to no heading it lacks.
Each check is first shown to fail on a hand-broken copy."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from httplab.paths import DEFAULT_REPO

CONTENTS_LINE = re.compile(r"^\s*- \[[^\]]*\]\(#([^)]+)\)\s*$", re.M)
HEADING = re.compile(r"^(#+) (.+?)\s*$", re.M)


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: "A/B in one run" -> "ab-in-one-run"."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _docs(repo: Path) -> list[Path]:
    return [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]


def contents_drift(path: Path, name: str) -> list[str]:
    """A doc's `## ` sections its contents list leaves out, and its links to no heading."""
    text = path.read_text()
    head = text.split("\n## ", 1)[0]
    listed = CONTENTS_LINE.findall(head)
    if not listed:
        return []
    headings = HEADING.findall(text)
    sections = [title for level, title in headings if level == "##"]
    problems = [f"{name}'s contents lack {title!r}" for title in sections
                if anchor(title) not in listed]
    anchors = {anchor(title) for _, title in headings}
    return problems + [f"{name}'s contents link to #{link}, no heading of it"
                       for link in listed if link not in anchors]


def lab_drift(repo: Path) -> list[str]:
    return [problem for path in _docs(repo)
            for problem in contents_drift(path, path.relative_to(repo).as_posix())]


def test_every_contents_list_names_every_section():
    with_contents = [path.name for path in _docs(DEFAULT_REPO)
                     if CONTENTS_LINE.search(path.read_text().split("\n## ", 1)[0])]
    assert {"findings.md", "method.md", "testing.md"} <= set(with_contents)
    assert lab_drift(DEFAULT_REPO) == []


def test_a_section_left_out_or_a_dead_link_is_caught(tmp_path):
    shutil.copy(DEFAULT_REPO / "README.md", tmp_path / "README.md")
    shutil.copytree(DEFAULT_REPO / "docs", tmp_path / "docs")
    method = tmp_path / "docs" / "method.md"
    text = method.read_text()
    line = "- [A/B in one run](#ab-in-one-run)\n"
    assert line in text
    method.write_text(text.replace(line, "").replace("## Failures\n", "## What fails\n"))
    assert lab_drift(tmp_path) == ["docs/method.md's contents lack 'What fails'",
                                   "docs/method.md's contents lack 'A/B in one run'",
                                   "docs/method.md's contents link to #failures, no heading "
                                   "of it"]
