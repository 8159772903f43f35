#!/usr/bin/env python3
"""Measures the codecs a run's raw archive could use: for each run folder given, the tar of
the raw files the archive holds (httplab.results.raw_archive: all of raw/ but the logs and
flame graphs): all of them, without the unmeasured runs (which KEEP_UNMEASURED=0 drops),
and without h2load's gzipped logs of requests too (already compressed, and soon replaced),
compressed by xz -6, xz -9e and, when the zstandard package is importable, zstd -3 and -19:
the size and the time to compress and to decompress. Reads the runs, writes nothing.

    nice -n 19 .venv/bin/python scripts/raw-codecs.py results/<run> [results/<run> ...]
"""

from __future__ import annotations

import lzma
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "loadgen"))

from httplab.results.raw_archive import plain_member, plain_raw_files, tar_bytes  # noqa: E402
from httplab.run_layout import (GZIP_SUFFIX, H2LOAD_REQUESTS_SUFFIX,  # noqa: E402
                                is_unmeasured)

Codec = tuple[str, Callable[[bytes], bytes], Callable[[bytes], bytes]]
MB = 1_000_000
# Which members each row keeps: every one, or as KEEP_UNMEASURED=0 leaves them, or that
# without h2load's logs of requests.
SELECTIONS = {
    "all": lambda name: True,
    "measured": lambda name: not is_unmeasured(name),
    "measured, no request logs": lambda name: not is_unmeasured(name)
    and not name.endswith(H2LOAD_REQUESTS_SUFFIX + GZIP_SUFFIX),
}


def codecs() -> list[Codec]:
    found: list[Codec] = [
        ("xz -6", lambda data: lzma.compress(data, preset=6), lzma.decompress),
        ("xz -9e", lambda data: lzma.compress(data, preset=9 | lzma.PRESET_EXTREME),
         lzma.decompress),
    ]
    try:
        import zstandard
    except ImportError:
        print("zstandard is not importable: zstd left out", file=sys.stderr)
        return found
    for level in (3, 19):
        found.append((f"zstd -{level}", zstandard.ZstdCompressor(level=level).compress,
                      zstandard.ZstdDecompressor().decompress))
    return found


def timed(work: Callable[[], bytes]) -> tuple[bytes, float]:
    start = time.process_time()
    out = work()
    return out, time.process_time() - start


def measure(tar: bytes, codec: Codec) -> str:
    """One codec's cells of a row: its name, the archive's size, the CPU times."""
    name, compress, decompress = codec
    packed, packing = timed(lambda: compress(tar))
    unpacked, unpacking = timed(lambda: decompress(packed))
    assert unpacked == tar
    return f"{name} | {len(packed) / MB:.2f} | {packing:.1f} | {unpacking:.2f} |"


def main(runs: list[str]) -> None:
    print("| run | files kept | files | tar MB | codec | archive MB | compress s (CPU) "
          "| decompress s (CPU) |")
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for run in map(Path, runs):
        members = [plain_member(path) for path in plain_raw_files(run)]
        for selection, keeps in SELECTIONS.items():
            kept = [member for member in members if keeps(member.name)]
            tar = tar_bytes(kept)
            head = f"| {run.name} | {selection} | {len(kept)} | {len(tar) / MB:.1f} | "
            for codec in codecs():
                print(head + measure(tar, codec), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
