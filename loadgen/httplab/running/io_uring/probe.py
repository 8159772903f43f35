"""What Netty's IoUringProbe printed, whether a run asks io_uring at all, which seccomp
profile a cell runs under, and the one line a run stops with when io_uring stays refused.
Pure: running the probe is trial.py's."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from httplab.axes import IO_URING
from httplab.manifest import ServerManifest
from httplab.model import ENGINE_SECCOMP
from httplab.paths import SERVERS
from httplab.running.backend_error import BackendError

# servers/netty's class (its javadoc states the output), in the Netty jar and image.
PROBE_SERVER = "netty"
PROBE_CLASS = "httplab.netty.IoUringProbe"
AVAILABLE, UNAVAILABLE = "io_uring available", "io_uring unavailable: "
# The profile an io_uring cell gets when the engine's own blocks io_uring (Docker 25+):
# servers/seccomp/default.json, moby's default as shipped, plus the three io_uring calls.
SHIPPED_PROFILE = SERVERS / "seccomp" / "io_uring.json"
KERNEL_SETTING = "kernel.io_uring_disabled"
KERNEL_SETTING_FILE = "/proc/sys/kernel/io_uring_disabled"
# The kernel's values (Documentation/admin-guide/sysctl/kernel.rst, io_uring_disabled).
KERNEL_MEANING = {"1": "io_uring only for processes in kernel.io_uring_group",
                  "2": "io_uring for no process"}
WAY_OUT = "or leave io_uring out of TRANSPORT"


class ProbeError(BackendError):
    """The probe did not answer (no such class, no image, no java): one line."""


@dataclass(frozen=True)
class ProbeAnswer:
    available: bool
    cause: str = ""  # Netty's IoUring.unavailabilityCause() when not available


def asks_io_uring(servers: Iterable[ServerManifest]) -> bool:
    """Whether any server of the run is asked to run on io_uring."""
    return any(server.transport == IO_URING for server in servers)


def probe_arguments(jar: str) -> list[str]:
    """java's arguments that run the probe from the jar at `jar`."""
    return ["-cp", jar, PROBE_CLASS]


def read_answer(exit_code: int, stdout: str, stderr: str) -> ProbeAnswer:
    """The probe's answer from its exit code and its one line; ProbeError when it gave none."""
    lines = stdout.strip().splitlines()
    said = lines[-1].strip() if lines else ""
    if exit_code == 0 and said == AVAILABLE:
        return ProbeAnswer(True)
    if exit_code == 1 and said.startswith(UNAVAILABLE):
        return ProbeAnswer(False, said[len(UNAVAILABLE):])
    complaint = next((line.strip() for line in stderr.splitlines()
                      if line.strip() and not line.startswith("WARNING:")), said)
    raise ProbeError(f"the io_uring probe ({PROBE_CLASS}) gave no answer (exit code "
                     f"{exit_code}): {complaint or 'it printed nothing'}")


def seccomp_of(manifest: ServerManifest, io_uring_profile: str) -> str:
    """The profile a cell runs under in Docker: io_uring's (the try's choice) for an io_uring
    cell, the engine's own for every other."""
    return io_uring_profile if manifest.transport == IO_URING else ENGINE_SECCOMP


def tried(profile: str | None) -> str:
    """What the try found, said before any load: the profile io_uring cells run under in
    Docker (None: on this host, BACKEND=local)."""
    if profile is None:
        return "io_uring: Netty's probe starts it on this host"
    if profile == ENGINE_SECCOMP:
        return "io_uring: Netty's probe starts it in a container under the engine's own seccomp profile"
    return (f"io_uring: the engine's own seccomp profile blocks it, {SHIPPED_PROFILE} allows "
            f"it: io_uring cells run under that profile, every other under the engine's")


def kernel_refusal(setting: str | None) -> str | None:
    """"kernel.io_uring_disabled=2 (io_uring for no process)" when the kernel setting, as
    read from its file, refuses io_uring; None when it allows it (0) or is absent."""
    value = (setting or "").strip()
    if value not in KERNEL_MEANING:
        return None
    return f"{KERNEL_SETTING}={value} ({KERNEL_MEANING[value]})"


def refused_in_containers(cause: str, kernel_setting: str | None) -> str:
    """The one line when io_uring is refused under the engine's profile and the shipped one."""
    profiles = f"under the engine's default seccomp profile and under {SHIPPED_PROFILE}"
    kernel = kernel_refusal(kernel_setting)
    if kernel:
        return (f"io_uring cannot start in a container here: {kernel} refuses it {profiles} "
                f"alike (Netty: {cause}); set {KERNEL_SETTING}=0 on the engine's host, {WAY_OUT}")
    return (f"io_uring cannot start in a container here: the Docker engine refuses it {profiles} "
            f"({KERNEL_SETTING}={_shown(kernel_setting)}; Netty: {cause}); look at the engine's "
            f"other confinement (AppArmor, SELinux, its runtime), {WAY_OUT}")


def refused_on_host(cause: str, kernel_setting: str | None) -> str:
    """The one line when io_uring is refused on this host (BACKEND=local)."""
    kernel = kernel_refusal(kernel_setting)
    if kernel:
        return (f"io_uring cannot start on this host: {kernel} refuses it (Netty: {cause}); "
                f"set {KERNEL_SETTING}=0, {WAY_OUT}")
    return (f"io_uring cannot start on this host ({KERNEL_SETTING}={_shown(kernel_setting)}; "
            f"Netty: {cause}); a seccomp filter on the lab's process or an older kernel may "
            f"refuse it: {WAY_OUT}")


def _shown(setting: str | None) -> str:
    return (setting or "").strip() or "absent"
