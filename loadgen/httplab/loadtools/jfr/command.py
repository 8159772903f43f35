"""JFR driven through jattach's jcmd: a recording of jdk.VirtualThreadPinned alone (no
other event: settings=none), every pinning however short (threshold 0 ms, where the JDK's
own settings keep those of 20 ms and more), with its stack; then stopped into a file the
host's `jfr print --json` reads. Pure: commands built and replies read, nothing run.

jcmd answers a command it cannot carry out with a message and response code 0 (`Could not
stop recording "x".`), so a reply is read by what it says, not by its code."""

from __future__ import annotations

PINNED_EVENT = "jdk.VirtualThreadPinned"
RECORDING_NAME = "httplab-pinned"
# What jattach itself prints before the JVM's answer.
_JATTACH_CHATTER = ("Connected to remote JVM", "JVM response code = ")
# The JVM's own words when the command did what it was asked (JDK 21 and 25 alike).
STARTED, STOPPED = "Started recording", "Stopped recording"
# Frames of a pinned event's stack that `jfr print` writes: the JVM records 64, and the
# first frame outside the JDK is within the first few (the park, the sleep or the socket
# read, then the code that called it); each frame is about 1 kB of JSON.
PRINTED_STACK_DEPTH = 16
PINNED_SETTINGS = {"enabled": "true", "threshold": "0ms", "stackTrace": "true"}


def start_command() -> str:
    """JFR.start with no event but the pinned one, each of its settings as `+event#name=value`
    (jcmd's syntax for an event's setting, JDK 17 and later)."""
    settings = " ".join(f"+{PINNED_EVENT}#{name}={value}"
                        for name, value in PINNED_SETTINGS.items())
    return f"JFR.start name={RECORDING_NAME} settings=none {settings}"


def stop_command(path: str) -> str:
    """JFR.stop, writing the recording to path (where the JVM runs)."""
    if " " in path:  # jcmd splits its arguments at spaces
        raise ValueError(f"JFR cannot write to {path!r}: jcmd's arguments are separated by "
                         "spaces, so a path may not hold one")
    return f"JFR.stop name={RECORDING_NAME} filename={path}"


def print_arguments(jfr: str, recording: str) -> list[str]:
    """The host's jfr printing the pinned events of a recording as JSON."""
    return [jfr, "print", "--json", "--stack-depth", str(PRINTED_STACK_DEPTH),
            "--events", PINNED_EVENT, recording]


def jcmd_failure(expected: str, exit_code: int, output: str) -> str | None:
    """None when jattach's jcmd reply says `expected` (STARTED, STOPPED); else why not, in
    the JVM's (or jattach's) words."""
    if exit_code == 0 and expected in output:
        return None
    said = [line.strip() for line in output.splitlines()
            if line.strip() and not line.strip().startswith(_JATTACH_CHATTER)]
    return f"exit code {exit_code}" + (f" ({'; '.join(said)})" if said else "")
