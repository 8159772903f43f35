"""async-profiler's collapsed stacks (its `collapsed` output, raw/<stem>.collapsed.txt): one
line per distinct stack, "frame;frame;...;leaf <samples>", the thread's first frame first.

A frame's name may hold spaces ("I2C/C2I adapters", "void G1ScanCardClosure::do_oop_work<
narrowOop>"), so the samples are the line's last space-separated word. How a frame is
written tells what it is: Java methods as class/path/Name.method, kernel functions with
the suffix _[k] (event cpu only), native functions as the symbol, or the library's path
when the symbol is unknown. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

KERNEL_SUFFIX = "_[k]"
# Suffixes async-profiler adds with its `ann` option: _[j] compiled, _[i] inlined,
# _[0] interpreted, _[1] C1-compiled Java frames, _[k] kernel ones.
_ANNOTATION = re.compile(r"_\[[a-z0-9]\]$")
# package/Class.method: a package (a slash, so "Interpreter" or a C++ name is not one),
# no space ("I2C/C2I adapters" is a VM stub) and not a library's path (/usr/lib/...).
_JAVA_FRAME = re.compile(r"[A-Za-z_$][\w$]*(?:/[\w$.]+)+\.[^\s/.]+")


@dataclass(frozen=True)
class Stack:
    """One distinct stack and the samples taken in it."""

    frames: tuple[str, ...]  # the thread's first frame first, the leaf (where it ran) last
    samples: int

    @property
    def leaf(self) -> str:
        return self.frames[-1]


def parse_collapsed(text: str, source: str = "collapsed stacks") -> tuple[Stack, ...]:
    """Every line's stack, in order; blank lines are skipped. Raises ValueError naming
    `source` and the line for a line that is not "frames samples"."""
    return tuple(_stack(line, number, source)
                 for number, line in enumerate(text.splitlines(), start=1) if line.strip())


def _stack(line: str, number: int, source: str) -> Stack:
    frames, _, count = line.rstrip().rpartition(" ")
    if not count.isdigit() or int(count) == 0:
        raise ValueError(f"{source}:{number}: expected 'frame;...;frame <samples>' with a "
                         f"whole number of samples at the end, got {line[-80:]!r}")
    if not frames:
        raise ValueError(f"{source}:{number}: {int(count)} samples without a stack")
    return Stack(tuple(frames.split(";")), int(count))


def without_annotation(frame: str) -> str:
    """The frame's name without async-profiler's _[x] suffix."""
    return _ANNOTATION.sub("", frame)


def is_kernel_frame(frame: str) -> bool:
    return frame.endswith(KERNEL_SUFFIX)


def java_name(frame: str) -> str | None:
    """A Java frame's class and method, dotted (io.netty.channel.Foo.bar); None for a
    native, kernel or VM frame."""
    name = without_annotation(frame)
    return name.replace("/", ".") if _JAVA_FRAME.fullmatch(name) else None
