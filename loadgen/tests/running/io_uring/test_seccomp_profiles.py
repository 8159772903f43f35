"""The seccomp profile io_uring cells get where the engine's own blocks io_uring: Docker's
default as moby ships it, plus exactly the three io_uring calls, nothing else."""

from __future__ import annotations

import difflib
import json

from httplab.running.io_uring.probe import SHIPPED_PROFILE

IO_URING_CALLS = ("io_uring_enter", "io_uring_register", "io_uring_setup")
ALLOW = "SCMP_ACT_ALLOW"


def _read(repo, name):
    text = (repo / SHIPPED_PROFILE.parent / name).read_text()
    return text, json.loads(text)


def _names(profile) -> set[str]:
    return {name for rule in profile["syscalls"] for name in rule["names"]}


def test_the_shipped_profile_is_the_default_plus_three_lines_naming_the_io_uring_calls(repo):
    default, _ = _read(repo, "default.json")
    shipped, _ = _read(repo, SHIPPED_PROFILE.name)
    changed = [line for line in difflib.unified_diff(default.splitlines(), shipped.splitlines(),
                                                     lineterm="", n=0)
               if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    assert sorted(changed) == [f'+\t\t\t\t"{call}",' for call in IO_URING_CALLS]


def test_the_calls_are_allowed_as_docker_20_10_allowed_them_and_nothing_else_differs(repo):
    _, default = _read(repo, "default.json")
    _, shipped = _read(repo, SHIPPED_PROFILE.name)
    assert not _names(default) & set(IO_URING_CALLS), "moby's default since Docker 25 blocks them"
    assert {key: value for key, value in shipped.items() if key != "syscalls"} == \
        {key: value for key, value in default.items() if key != "syscalls"}
    assert len(shipped["syscalls"]) == len(default["syscalls"])
    (before, after), = [(old, new) for old, new in zip(default["syscalls"], shipped["syscalls"])
                        if old != new]
    # One rule gained them: an unconditional allow (no arguments, capabilities or kernel).
    assert {key: value for key, value in after.items() if key != "names"} == \
        {key: value for key, value in before.items() if key != "names"}
    assert after["action"] == ALLOW and not set(after) - {"names", "action", "args", "comment",
                                                          "includes", "excludes"}
    assert not after.get("args") and not after.get("includes") and not after.get("excludes")
    assert [name for name in after["names"] if name not in IO_URING_CALLS] == before["names"]
    assert set(after["names"]) - set(before["names"]) == set(IO_URING_CALLS)


def test_neither_profile_is_unconfined(repo):
    for name in ("default.json", SHIPPED_PROFILE.name):
        _, profile = _read(repo, name)
        assert profile["defaultAction"] != ALLOW and len(profile["syscalls"]) > 1
