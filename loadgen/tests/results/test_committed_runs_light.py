"""A committed run costs a few megabytes: every run folder under results/ stays within
RUN_BUDGET and keeps no socket readings, per-request logs or unmeasured files, plain or in
its archive. The runs not converted yet are listed with the reason; the list may only
shrink (a listed run that is light already fails, so it leaves the list when converted)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from httplab.paths import DEFAULT_REPO
from httplab.results.raw_archive import archived_members
from httplab.run_layout import GZIP_SUFFIX, H2LOAD_REQUESTS_SUFFIX, SOCKETS_SUFFIX, UNMEASURED

RESULTS = DEFAULT_REPO / "results"
RUN_BUDGET = 5 * 1024 * 1024  # bytes on disk a committed run may take
HEAVY_ENDINGS = (SOCKETS_SUFFIX, H2LOAD_REQUESTS_SUFFIX, H2LOAD_REQUESTS_SUFFIX + GZIP_SUFFIX)
# Converting a run deletes its raw files, and a submission's diffs (deletions included) are
# capped: the committed runs are converted over two submissions, the largest first.
NOT_YET_CONVERTED_REASON = "converted in the next submission (the diff cap of one submission)"
NOT_YET_CONVERTED = frozenset({
    "2026-11-23T04-59-26Z", "2026-11-24T08-35-22Z", "2026-11-24T12-11-42Z",
    "2026-11-24T15-07-00Z", "2026-11-24T15-10-47Z", "2026-11-26T14-54-49Z",
    "2026-11-26T21-29-14Z", "2026-11-27T03-52-46Z", "2026-11-29T00-05-56Z",
})


def committed_runs() -> list[Path]:
    return sorted(path for path in RESULTS.glob("20*") if path.is_dir())


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def heavy_files(run: Path) -> list[str]:
    """The raw files a light run keeps only as their reductions, plain or archived."""
    plain = [path.relative_to(run).as_posix() for path in run.rglob("*") if path.is_file()]
    names = plain + list(archived_members(run))
    return sorted(name for name in names
                  if name.endswith(HEAVY_ENDINGS) or f"/{UNMEASURED}/" in f"/{name}")


def weight_problems(run: Path) -> list[str]:
    size = folder_bytes(run)
    over = [f"{size / 1e6:.1f} MB, over {RUN_BUDGET / 1e6:.1f} MB"] if size > RUN_BUDGET else []
    return over + heavy_files(run)


@pytest.mark.parametrize("run", committed_runs(), ids=lambda run: run.name)
def test_a_committed_run_is_light_unless_listed(run):
    problems = weight_problems(run)
    if run.name in NOT_YET_CONVERTED:
        assert problems, f"{run.name} is light now: take it off NOT_YET_CONVERTED"
    else:
        assert problems == [], f"{run.name}: {problems}"


def test_every_listed_run_exists():
    assert NOT_YET_CONVERTED <= {run.name for run in committed_runs()}


def test_a_run_that_still_holds_a_socket_dump_fails(tmp_path):
    light = next(run for run in committed_runs() if run.name not in NOT_YET_CONVERTED
                 and (run / "raw.tar.xz").is_file())
    copy = tmp_path / light.name
    shutil.copytree(light, copy)
    assert weight_problems(copy) == []
    dump = copy / "raw" / f"netty-t10-c500{SOCKETS_SUFFIX}"
    dump.write_text("ESTAB 0 0 127.0.0.1:8080 127.0.0.1:40000\n")
    assert weight_problems(copy) == [f"raw/{dump.name}"]
    (copy / "raw" / "big.log").write_bytes(b"x" * RUN_BUDGET)
    assert weight_problems(copy)[0].endswith(f"over {RUN_BUDGET / 1e6:.1f} MB")
