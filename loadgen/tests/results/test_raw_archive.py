"""The raw files' archive: packed whole and read back member by member through the one seam,
plain files winning while there are any; logs and flame graphs stay plain."""

from __future__ import annotations

import hashlib
import shutil
import tarfile

import pytest

from httplab.results.raw_archive import (archive_record, archived_members, pack,
                                         raw_file_exists, raw_names, read_raw_bytes,
                                         read_raw_text)
from httplab.run_layout import raw_member

from tests.conftest import FIXTURES

WRK = FIXTURES / "wrk"
FILES = {  # relative to the run directory: what packing does with it
    "raw/netty-t2-c10.txt": "packed", "raw/netty-t2-c10.json": "packed",
    "raw/netty-t2-c10.h2load-requests.tsv.gz": "packed",
    "raw/unmeasured/netty-warmup.txt": "packed",
    "raw/netty.log": "plain", "raw/netty.database.log": "plain",
    "raw/netty-t2-c10.flame.html": "plain", "raw/.netty-t2-c10.json.tmp": "plain",
}


def _run(tmp_path):
    run = tmp_path / "run"
    for index, name in enumerate(FILES):
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_bytes(f"{name} {index}\n".encode() + bytes(range(256)))
    return run


def test_packing_moves_every_raw_file_but_logs_and_flame_graphs_into_the_archive(tmp_path):
    run = _run(tmp_path)
    before = {name: (run / name).read_bytes() for name in FILES}
    record = pack(run)
    packed = sorted(name for name, fate in FILES.items() if fate == "packed")
    assert archived_members(run) == tuple(packed)
    assert record.name == "raw.tar.xz"
    assert record.sha256 == hashlib.sha256((run / "raw.tar.xz").read_bytes()).hexdigest()
    for name, fate in FILES.items():
        assert (run / name).is_file() == (fate == "plain"), name
        assert read_raw_bytes(run / name) == before[name]
        assert raw_file_exists(run / name)
    assert not (run / "raw" / "unmeasured").exists()
    assert not list(run.glob(".raw.tar.xz*"))
    with tarfile.open(run / "raw.tar.xz") as tar:  # an ordinary tar.xz, for tar -xJf
        assert sorted(tar.getnames()) == packed


def test_the_seam_lists_plain_files_and_members_alike(tmp_path):
    run = _run(tmp_path)
    listed = raw_names(run / "raw")
    pack(run)
    assert raw_names(run / "raw") == listed
    assert raw_names(run / "raw" / "unmeasured") == ["netty-warmup.txt"]
    assert not raw_file_exists(run / "raw" / "nothing.txt")
    with pytest.raises(FileNotFoundError):
        read_raw_bytes(run / "raw" / "nothing.txt")


def test_a_plain_file_wins_over_its_member_and_is_packed_in_its_place(tmp_path):
    run = _run(tmp_path)
    pack(run)
    (run / "raw" / "netty-t2-c10.txt").write_text("again\n")
    (run / "raw" / "other-t2-c10.txt").write_text("new\n")
    assert read_raw_text(run / "raw" / "netty-t2-c10.txt") == "again\n"
    pack(run)
    assert read_raw_text(run / "raw" / "netty-t2-c10.txt") == "again\n"
    assert read_raw_text(run / "raw" / "other-t2-c10.txt") == "new\n"
    assert "raw/netty-t2-c10.json" in archived_members(run)
    assert not (run / "raw" / "netty-t2-c10.txt").exists()


def test_the_same_files_pack_into_the_same_bytes(tmp_path):
    first = _run(tmp_path / "a")
    second = tmp_path / "b" / "run"
    shutil.copytree(first, second)  # with each file's mtime
    assert pack(first).sha256 == pack(second).sha256
    assert archive_record(first) == archive_record(second)


def test_packing_again_without_plain_files_keeps_the_archive_as_it_was(tmp_path):
    run = _run(tmp_path)
    record = pack(run)
    modified = (run / "raw.tar.xz").stat().st_mtime_ns
    assert pack(run) == record
    assert (run / "raw.tar.xz").stat().st_mtime_ns == modified


def test_left_out_files_are_removed_unpacked(tmp_path):
    run = _run(tmp_path)
    warmup = run / "raw" / "unmeasured" / "netty-warmup.txt"
    pack(run, [warmup])
    assert "raw/unmeasured/netty-warmup.txt" not in archived_members(run)
    assert not raw_file_exists(warmup)


def test_a_folder_without_raw_files_gets_no_archive(tmp_path):
    (tmp_path / "run" / "raw").mkdir(parents=True)
    (tmp_path / "run" / "raw" / "netty.log").write_text("log\n")
    assert pack(tmp_path / "run") is None
    assert not (tmp_path / "run" / "raw.tar.xz").exists()


@pytest.mark.parametrize(("path", "member"), [
    ("results/x/raw/netty-t2-c10.txt", ("results/x", "raw/netty-t2-c10.txt")),
    ("results/x/raw/unmeasured/netty-warmup.txt", ("results/x", "raw/unmeasured/netty-warmup.txt")),
    ("pasted/netty-t2-c10.txt", None),
    ("results/x/raw/a/b/c.txt", None),
])
def test_a_path_in_a_raw_folder_is_a_member_of_its_runs_archive(path, member):
    from pathlib import Path

    found = raw_member(Path(path))
    assert (None if found is None else (found[0].as_posix(), found[1])) == member


def test_pasted_raw_files_outside_a_run_are_read_plain(tmp_path):
    shutil.copy(WRK / "nginx-hello.txt", tmp_path / "nginx-t2-c10.txt")
    assert raw_names(tmp_path) == ["nginx-t2-c10.txt"]
    assert read_raw_text(tmp_path / "nginx-t2-c10.txt") == (WRK / "nginx-hello.txt").read_text()
