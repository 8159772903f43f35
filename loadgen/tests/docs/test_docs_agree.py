"""The docs held to the code where a fact can drift: the results format the docs state,
the committed runs docs/findings.md lists (against the folders under results/, with each
run's JDK and lab commit), docs/settings.md (against its generator), the sections of the
README and method.md that the harness cites by name, and the test files the README and
docs/ name (against loadgen/tests/). Each check is first shown to fail on a hand-broken
copy."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from httplab.bench_settings import settings_markdown
from httplab.paths import DEFAULT_REPO
from httplab.results.results_json.version import FORMAT_VERSION
from httplab.results.store import read_results
from httplab.run_layout import RESULTS_JSON

FORMAT_STATED = re.compile(r"\bformat\s+(\d+)\b")
# | [`run`](link) | what | host | JDK | lab commit | charts |
RUN_ROW = re.compile(r"^\| \[`([0-9TZ-]+)`\]\([^)]*\) \|.*\| ([^|]*) \| ([^|]*) \| [^|]* \|$", re.M)
JDK_VERSION = re.compile(r"\b\d+\.\d+\.\d+\b")
NOT_RECORDED = "not recorded"


def _doc_texts(repo: Path) -> dict[str, str]:
    paths = [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]
    return {path.relative_to(repo).as_posix(): path.read_text() for path in paths}


def format_drift(repo: Path) -> list[str]:
    """Every results format a doc states is the one the code writes; method.md states it."""
    texts = _doc_texts(repo)
    problems = [f"{name} says format {number}; the code writes {FORMAT_VERSION}"
                for name, text in texts.items() for number in FORMAT_STATED.findall(text)
                if int(number) != FORMAT_VERSION]
    if not FORMAT_STATED.search(texts["docs/method.md"]):
        problems.append("docs/method.md states no results format")
    return problems


def committed_runs(repo: Path) -> dict[str, Path]:
    """Each run folder under results/ (a folder with a results.json; not `latest`)."""
    return {folder.name: folder / RESULTS_JSON for folder in sorted((repo / "results").iterdir())
            if folder.is_dir() and not folder.is_symlink() and (folder / RESULTS_JSON).is_file()}


def _committed_runs_table(findings: str) -> str:
    return findings.split("## The committed runs", 1)[1].split("\n## ", 1)[0]


def _record_drift(run: str, jdk: str, commit: str, results: Path) -> list[str]:
    """A row's JDKs are those the run's servers reported, each by some server; its commit,
    the run's."""
    result = read_results(results)
    problems = []
    if commit.strip().strip("`") != (result.lab_commit or NOT_RECORDED):
        problems.append(f"findings.md gives {run} the commit {commit.strip()}; it records "
                        f"{result.lab_commit}")
    versions = set(JDK_VERSION.findall(jdk))  # one, or each of a JDK=17,25 run's
    reported = {server.java_version for server in result.servers if server.java_version}
    if not versions or not reported or any(
            not any(version in java for version in versions) for java in reported) or any(
            not any(version in java for java in reported) for version in versions):
        problems.append(f"findings.md gives {run} the JDK {jdk.strip()}; its servers "
                        f"reported {sorted(reported)}")
    return problems


def runs_drift(repo: Path) -> list[str]:
    """findings.md's table names every committed run once, with its JDK and commit."""
    rows = RUN_ROW.findall(_committed_runs_table((repo / "docs" / "findings.md").read_text()))
    listed = [run for run, _, _ in rows]
    runs = committed_runs(repo)
    problems = [f"findings.md lists {run} {listed.count(run)} times" for run in sorted(set(listed))
                if listed.count(run) > 1]
    problems += [f"findings.md does not list results/{run}" for run in runs if run not in listed]
    problems += [f"findings.md lists {run}, which results/ does not hold" for run in listed
                 if run not in runs]
    for run, jdk, commit in rows:
        if run in runs:
            problems += _record_drift(run, jdk, commit, runs[run])
    return problems


def settings_drift(repo: Path) -> list[str]:
    if (repo / "docs" / "settings.md").read_text() == settings_markdown():
        return []
    return ["docs/settings.md differs from `httplab settings --markdown`: run make docs-settings"]


@pytest.fixture
def lab_copy(tmp_path) -> Path:
    """The README, docs/ and each committed run's results.json, in a scratch folder."""
    shutil.copy(DEFAULT_REPO / "README.md", tmp_path / "README.md")
    shutil.copytree(DEFAULT_REPO / "docs", tmp_path / "docs")
    for run, results in committed_runs(DEFAULT_REPO).items():
        (tmp_path / "results" / run).mkdir(parents=True)
        shutil.copy(results, tmp_path / "results" / run / RESULTS_JSON)
    (tmp_path / "results" / "latest").symlink_to(max(committed_runs(DEFAULT_REPO)))
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def test_the_docs_state_the_results_format_the_code_writes():
    assert format_drift(DEFAULT_REPO) == []


def test_a_stale_results_format_is_caught(lab_copy):
    method = lab_copy / "docs" / "method.md"
    number = FORMAT_STATED.search(method.read_text()).group(0)
    _edit(method, number, f"format {FORMAT_VERSION - 1}")
    assert format_drift(lab_copy) == [f"docs/method.md says format {FORMAT_VERSION - 1}; "
                                      f"the code writes {FORMAT_VERSION}"]
    _edit(lab_copy / "docs" / "method.md", f"format {FORMAT_VERSION - 1}", "format")
    assert format_drift(lab_copy) == ["docs/method.md states no results format"]


def test_findings_lists_every_committed_run_once_with_its_commit():
    assert len(committed_runs(DEFAULT_REPO)) >= 9
    assert runs_drift(DEFAULT_REPO) == []


def test_a_run_missing_from_findings_or_listed_twice_is_caught(lab_copy):
    findings = lab_copy / "docs" / "findings.md"
    first = min(committed_runs(lab_copy))
    row = next(line for line in findings.read_text().splitlines() if f"[`{first}`]" in line)
    _edit(findings, row + "\n", "")
    assert runs_drift(lab_copy) == [f"findings.md does not list results/{first}"]
    _edit(findings, "| --- |\n", f"| --- |\n{row}\n{row}\n")
    assert runs_drift(lab_copy) == [f"findings.md lists {first} 2 times"]


def test_a_run_findings_does_not_know_or_a_wrong_commit_is_caught(lab_copy):
    newest = max(committed_runs(lab_copy))
    unknown = "2030-01-01T00-00-00Z"
    shutil.copytree(lab_copy / "results" / newest, lab_copy / "results" / unknown)
    assert runs_drift(lab_copy) == [f"findings.md does not list results/{unknown}"]
    shutil.rmtree(lab_copy / "results" / unknown)
    commit = read_results(committed_runs(lab_copy)[newest]).lab_commit
    findings = lab_copy / "docs" / "findings.md"
    row = next(line for line in findings.read_text().splitlines() if f"[`{newest}`]" in line)
    _edit(findings, row, row.replace(f"`{commit}`", "`0000000`"))
    assert runs_drift(lab_copy) == [f"findings.md gives {newest} the commit `0000000`; it "
                                    f"records {commit}"]


def test_a_wrong_jdk_is_caught(lab_copy):
    findings = lab_copy / "docs" / "findings.md"
    newest = max(committed_runs(lab_copy))
    row = next(line for line in findings.read_text().splitlines() if f"[`{newest}`]" in line)
    jdk = RUN_ROW.match(row).group(2)
    _edit(findings, row, row.replace(f"| {jdk} |", "| Temurin 21.0.5 |"))
    problems = runs_drift(lab_copy)
    assert len(problems) == 1 and problems[0].startswith(
        f"findings.md gives {newest} the JDK Temurin 21.0.5; its servers reported")


def test_the_settings_doc_is_its_generators_output():
    assert settings_drift(DEFAULT_REPO) == []


def test_a_hand_edited_settings_doc_is_caught(lab_copy):
    _edit(lab_copy / "docs" / "settings.md", "| `THREADS` | `10,5` |", "| `THREADS` | `8` |")
    assert settings_drift(lab_copy) != []




# `README, \"Bottlenecks\"` or `docs/method.md, &ldquo;Comparing two runs&rdquo;` in the
# harness's source, once adjacent string literals are joined.
CITED_SECTION = re.compile(r'(README|docs/method\.md), (?:\\"|&ldquo;)([^"\\&]+)(?:\\"|&rdquo;)')
ADJACENT_LITERALS = re.compile(r'"\s*\n\s*"')
CITING_FILES = ("*.py", "*.j2")
DOC_OF = {"README": "README.md", "docs/method.md": "docs/method.md"}


def cited_sections(repo: Path) -> set[tuple[str, str, str]]:
    """(module, doc, section) for each section of the README or method.md that the
    harness's messages, results and pages cite by name."""
    harness = repo / "loadgen" / "httplab"
    sources = sorted(path for pattern in CITING_FILES for path in harness.rglob(pattern))
    return {(source.relative_to(repo).as_posix(), DOC_OF[doc], name)
            for source in sources
            for doc, name in CITED_SECTION.findall(ADJACENT_LITERALS.sub("", source.read_text()))}


def _has_heading(text: str, name: str) -> bool:
    """"Bottlenecks" names "## Bottlenecks: where the CPU went" too."""
    return re.search(rf"^#+ {re.escape(name)}(?:$|:| \()", text, re.M) is not None


def cited_sections_drift(repo: Path) -> list[str]:
    return [f"{source} cites the section {name!r} of {doc}, which it lacks"
            for source, doc, name in sorted(cited_sections(repo))
            if not _has_heading((repo / doc).read_text(), name)]


def test_the_docs_have_every_section_the_harness_cites():
    cited = {(doc, name) for _, doc, name in cited_sections(DEFAULT_REPO)}
    assert {("README.md", "Bottlenecks"), ("README.md", "Installing Docker on Debian"),
            ("docs/method.md", "Profiles"), ("docs/method.md", "Comparing two runs")} <= cited
    assert cited_sections_drift(DEFAULT_REPO) == []


def test_a_cited_section_the_docs_lost_is_caught(lab_copy):
    shutil.copytree(DEFAULT_REPO / "loadgen" / "httplab", lab_copy / "loadgen" / "httplab")
    _edit(lab_copy / "README.md", "### Bottlenecks\n", "### Limits\n")
    _edit(lab_copy / "docs" / "method.md", "## Workloads\n", "## What is asked\n")
    lost = {("README.md", "Bottlenecks"), ("docs/method.md", "Workloads")}
    citing = sorted(cited for cited in cited_sections(lab_copy) if cited[1:] in lost)
    assert {cited[1:] for cited in citing} == lost
    assert cited_sections_drift(lab_copy) == [
        f"{source} cites the section {name!r} of {doc}, which it lacks"
        for source, doc, name in citing]


# `test_cli.py`, `png/test_sweep.py`, `html/test_*.py` or `loadgen/tests/test_architecture.py`
TEST_FILE_NAMED = re.compile(r"`((?:[\w.-]+/)*test_[\w*]*\.py)`")
# "the tests of presentation are named relative to `tests/presentation/`"
NAMED_RELATIVE_TO = re.compile(r"named relative to `(?:loadgen/)?tests/([\w/]+?)/?`")


def named_test_files(repo: Path) -> set[tuple[str, str]]:
    """(doc, name) for each test file the README and docs/ name in backticks."""
    return {(doc, name) for doc, text in _doc_texts(repo).items()
            for name in TEST_FILE_NAMED.findall(text)}


def _test_folders(repo: Path, text: str) -> list[Path]:
    """loadgen/tests, and any folder of it that the doc says it names tests relative to."""
    tests = repo / "loadgen" / "tests"
    return [tests, *(tests / folder for folder in NAMED_RELATIVE_TO.findall(text))]


def _is_held(name: str, folders: list[Path]) -> bool:
    """The name, its `loadgen/tests/` or `tests/` left off, is a file (a `*` in it, at
    least one) under one of the folders."""
    path = name.removeprefix("loadgen/").removeprefix("tests/")
    return any(any(folder.glob(path)) for folder in folders)


def named_tests_drift(repo: Path) -> list[str]:
    texts = _doc_texts(repo)
    return [f"{doc} names {name}, which loadgen/tests does not hold"
            for doc, name in sorted(named_test_files(repo))
            if not _is_held(name, _test_folders(repo, texts[doc]))]


def _copy_test_files(repo: Path, copy: Path) -> Path:
    """Every test file of loadgen/tests, empty, at its place in the copy."""
    tests = repo / "loadgen" / "tests"
    for path in tests.rglob("test_*.py"):
        target = copy / "loadgen" / "tests" / path.relative_to(tests)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.touch()
    return copy / "loadgen" / "tests"


def test_every_test_file_the_docs_name_is_in_loadgen_tests():
    named = named_test_files(DEFAULT_REPO)
    assert {("docs/testing.md", "test_cli.py"), ("docs/testing.md", "png/test_sweep.py"),
            ("docs/testing.md", "html/test_*.py"),
            ("docs/architecture.md", "loadgen/tests/test_architecture.py")} <= named
    assert named_tests_drift(DEFAULT_REPO) == []


def test_a_moved_test_file_the_docs_still_name_is_caught(lab_copy):
    tests = _copy_test_files(DEFAULT_REPO, lab_copy)
    assert named_tests_drift(lab_copy) == []
    (tests / "test_cli.py").rename(tests / "commands" / "test_cli.py")
    assert named_tests_drift(lab_copy) == [
        "docs/testing.md names test_cli.py, which loadgen/tests does not hold"]
    for page in (tests / "presentation" / "html").glob("test_*.py"):
        page.unlink()
    assert "docs/testing.md names html/test_*.py, which loadgen/tests does not hold" in \
        named_tests_drift(lab_copy)


def test_testing_md_names_presentations_tests_relative_to_its_folder_as_it_says(lab_copy):
    tests = _copy_test_files(DEFAULT_REPO, lab_copy)
    testing = lab_copy / "docs" / "testing.md"
    relative = sorted(name for doc, name in named_test_files(lab_copy)
                      if doc == "docs/testing.md" and not _is_held(name, [tests]))
    assert "png/test_sweep.py" in relative
    _edit(testing, "named relative to `tests/presentation/`", "named relative to their folder")
    assert named_tests_drift(lab_copy) == [
        f"docs/testing.md names {name}, which loadgen/tests does not hold" for name in relative]
