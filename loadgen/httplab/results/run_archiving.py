"""When a run's raw files are archived: the run's mark while it goes on, and its end.

A run under way carries a mark (run_layout.UNDER_WAY: the host and process that run it, and
its KEEP_UNMEASURED), so that `make report` leaves it alone. When the run ends, its raw
files are archived (raw_archive.pack) and the mark removed. Ctrl-C or a crash keeps the
files plain and the mark, whose process is then gone: such a run, like a run from before
archives (plain files, no mark), is interrupted, and `make report` archives it.

Unless KEEP_UNMEASURED=1, the unmeasured runs' files (raw/unmeasured/) are dropped, after
their one-line summaries were written to raw/unmeasured.log: no table reads them."""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from httplab.bench_settings import DEFAULTS
from httplab.model import RawArchive
from httplab.results.raw_archive import pack, plain_raw_files
from httplab.results.store import write_atomically
from httplab.results.unmeasured_summary import summary_lines
from httplab.run_layout import RAW, UNDER_WAY, UNMEASURED_LOG, is_unmeasured, raw_member

KEEP_UNMEASURED_DEFAULT = DEFAULTS["keep-unmeasured"] == "1"  # for a run without a mark


@dataclass(frozen=True)
class RunMark:
    host: str
    pid: int
    keep_unmeasured: bool


def mark_under_way(run_dir: Path, keep_unmeasured: bool) -> None:
    """The mark of a run this process runs."""
    mark = RunMark(socket.gethostname(), os.getpid(), keep_unmeasured)
    write_atomically(run_dir / UNDER_WAY, json.dumps(vars(mark)) + "\n")


def read_mark(run_dir: Path) -> RunMark | None:
    """The run's mark; None without one, or with one that cannot be read."""
    try:
        return RunMark(**json.loads((run_dir / UNDER_WAY).read_text()))
    except (OSError, ValueError, TypeError):
        return None


def under_way(run_dir: Path) -> RunMark | None:
    """The mark of a run whose process still runs (on another host: taken as running)."""
    mark = read_mark(run_dir)
    if mark is None:
        return None
    return mark if mark.host != socket.gethostname() or _alive(mark.pid) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def archive_run(run_dir: Path, keep_unmeasured: bool | None = None) -> RawArchive | None:
    """The run's raw files archived (its unmeasured runs' summarised and dropped unless
    kept), its mark removed; the archive's record (None: a run without raw files).
    keep_unmeasured None: as the run's mark says, else the default."""
    if keep_unmeasured is None:
        mark = read_mark(run_dir)
        keep_unmeasured = mark.keep_unmeasured if mark else KEEP_UNMEASURED_DEFAULT
    dropped = () if keep_unmeasured else _summarised_unmeasured(run_dir)
    archive = pack(run_dir, dropped)
    (run_dir / UNDER_WAY).unlink(missing_ok=True)
    return archive


def _summarised_unmeasured(run_dir: Path) -> tuple[Path, ...]:
    """The plain unmeasured files, once their runs' lines were added to raw/unmeasured.log."""
    files = tuple(path for path in plain_raw_files(run_dir)
                  if is_unmeasured(raw_member(path)[1]))
    if files:
        log = run_dir / RAW / UNMEASURED_LOG
        earlier = log.read_text().splitlines() if log.is_file() else []
        lines = summary_lines({path.name: path.read_text(errors="replace") for path in files})
        by_run = sorted({*earlier, *lines}, key=lambda line: line.partition(": ")[0])
        write_atomically(log, "".join(f"{line}\n" for line in by_run))
    return files
