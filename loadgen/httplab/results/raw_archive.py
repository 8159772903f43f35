"""A finished run's raw files packed in one archive (run_layout.RAW_ARCHIVE, members named
raw/<name>), and the one seam every reader of raw files goes through: a path in a run's raw
folder reads its plain file while there is one (a run under way, or interrupted), else the
archive's member of that name. Logs and flame graphs stay plain files (run_layout.stays_plain).

Packing writes the plain raw files, with the members of an earlier archive (a plain file
replacing its member), under a hidden name, renames it, and only then removes the plain
files: at every moment each file is whole in one place or the other. The archive is the
same bytes for the same files (names sorted, owners and modes fixed, each file's mtime).
The codec (xz, preset 6) is chosen in docs/method.md, "The raw files' archive"."""

from __future__ import annotations

import hashlib
import io
import lzma
import os
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from httplab.model import RawArchive
from httplab.run_layout import RAW, RAW_ARCHIVE, raw_member, stays_plain

XZ_PRESET = 6
_FILE_MODE = 0o644


@dataclass(frozen=True)
class Member:
    name: str  # raw/<name>, relative to the run directory
    mtime: int
    data: bytes


def archive_path(run_dir: Path) -> Path:
    return run_dir / RAW_ARCHIVE


def raw_file_exists(path: Path) -> bool:
    """A raw file, plain or in its run's archive."""
    return path.is_file() or _archived(path) is not None


def existing_raw_file(path: Path) -> Path | None:
    return path if raw_file_exists(path) else None


def read_raw_bytes(path: Path) -> bytes:
    """The plain file while there is one, else its member; FileNotFoundError when neither."""
    if path.is_file():
        return path.read_bytes()
    member = _archived(path)
    if member is None:
        raise FileNotFoundError(f"no such raw file: {path}")
    return member.data


def read_raw_text(path: Path) -> str:
    """As the readers always read raw text: undecodable bytes replaced."""
    return read_raw_bytes(path).decode("utf-8", errors="replace")


def raw_names(folder: Path) -> list[str]:
    """The names of the files directly in a raw folder, plain or archived, sorted."""
    plain = {path.name for path in folder.iterdir() if path.is_file()} \
        if folder.is_dir() else set()
    place = raw_member(folder / "-")
    if place is not None:
        run_dir, inside = place
        prefix = inside[:-1]  # raw/ or raw/unmeasured/
        plain |= {name[len(prefix):] for name in archived_members(run_dir)
                  if name.startswith(prefix) and "/" not in name[len(prefix):]}
    return sorted(plain)


def archived_members(run_dir: Path) -> tuple[str, ...]:
    """The names of the run's archive's members (none without an archive), sorted."""
    return tuple(sorted(_members_of(archive_path(run_dir))))


def _archived(path: Path) -> Member | None:
    place = raw_member(path)
    if place is None:
        return None
    run_dir, name = place
    return _members_of(archive_path(run_dir)).get(name)


def _members_of(archive: Path) -> dict[str, Member]:
    """The archive's members by name, read whole once (xz reads forward only) and kept
    while the file stays the same."""
    try:
        stat = archive.stat()
    except FileNotFoundError:
        return {}
    return _read_members(str(archive), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=1)
def _read_members(archive: str, mtime_ns: int, size: int) -> dict[str, Member]:
    members = {}
    with tarfile.open(archive, "r:xz") as tar:
        for info in tar:
            if info.isfile():
                members[info.name] = Member(info.name, int(info.mtime),
                                            tar.extractfile(info).read())
    return members


def plain_raw_files(run_dir: Path) -> tuple[Path, ...]:
    """The run's plain raw files that belong in its archive (not a log, a flame graph or a
    hidden file, such as a write under way), sorted."""
    raw = run_dir / RAW
    found = raw.rglob("*") if raw.is_dir() else ()
    return tuple(sorted(path for path in found if path.is_file() and not stays_plain(path.name)
                        and not any(part.startswith(".") for part in path.relative_to(raw).parts)))


def pack(run_dir: Path, left_out: Iterable[Path] = ()) -> RawArchive | None:
    """The run's plain raw files (but left_out, which are removed unpacked) packed into its
    archive with those it held; the archive's record, None for a run without raw files."""
    dropped = set(left_out)
    plain = [path for path in plain_raw_files(run_dir) if path not in dropped]
    if plain:
        members = {**_members_of(archive_path(run_dir)),
                   **{member.name: member for member in map(plain_member, plain)}}
        _write(archive_path(run_dir), sorted(members.values(), key=lambda m: m.name))
    for path in (*plain, *dropped):
        path.unlink(missing_ok=True)
    _remove_empty_folders(run_dir / RAW)
    return archive_record(run_dir)


def archive_record(run_dir: Path) -> RawArchive | None:
    """The run's archive's name and SHA-256, as results.json records them; None without one."""
    path = archive_path(run_dir)
    if not path.is_file():
        return None
    digest = hashlib.sha256()
    with path.open("rb") as archive:
        for block in iter(lambda: archive.read(1 << 20), b""):
            digest.update(block)
    return RawArchive(RAW_ARCHIVE, digest.hexdigest())


def plain_member(path: Path) -> Member:
    run_dir = raw_member(path)
    name = run_dir[1] if run_dir else path.name
    return Member(name, int(path.stat().st_mtime), path.read_bytes())


def archive_bytes(members: Iterable[Member], preset: int = XZ_PRESET) -> bytes:
    """The archive of these members, in their order, as packing writes it."""
    return lzma.compress(tar_bytes(members), preset=preset)


def tar_bytes(members: Iterable[Member]) -> bytes:
    """The members as one uncompressed tar, in their order."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for member in members:
            tar.addfile(_info(member), io.BytesIO(member.data))
    return buffer.getvalue()


def _info(member: Member) -> tarfile.TarInfo:
    info = tarfile.TarInfo(member.name)
    info.size, info.mtime, info.mode = len(member.data), member.mtime, _FILE_MODE
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def _write(archive: Path, members: list[Member]) -> None:
    """Under a hidden name, then renamed: a reader never sees half an archive."""
    temporary = archive.with_name(f".{archive.name}.tmp")
    temporary.write_bytes(archive_bytes(members))
    os.replace(temporary, archive)


def _remove_empty_folders(raw: Path) -> None:
    """raw/unmeasured/ once its files are packed or dropped (raw/ itself stays)."""
    if not raw.is_dir():
        return
    for folder in sorted((path for path in raw.rglob("*") if path.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()
