"""Whether a test may start io_uring here. Where the kernel refuses it
(kernel.io_uring_disabled other than 0) the tests that need it are skipped, saying so, in CI
too: that machine cannot run them. Where the kernel allows it but Netty's IoUringProbe still
refuses (a seccomp filter around the tests, a missing native library), they are skipped
elsewhere and fail in CI (CI=true), since this kind of machine runs them."""

from __future__ import annotations

from pathlib import Path

import pytest

from httplab.running.io_uring.probe import KERNEL_SETTING, KERNEL_SETTING_FILE

from tests.docker_support import IN_CI


def kernel_refusal(setting_file: Path = Path(KERNEL_SETTING_FILE)) -> str:
    """"kernel.io_uring_disabled=N on this host" when the kernel refuses io_uring; "" when
    it allows it (0, or a kernel older than the setting)."""
    value = setting_file.read_text().strip() if setting_file.is_file() else "0"
    return "" if value == "0" else f"{KERNEL_SETTING}={value} on this host"


def require_io_uring(probe_refusal: str = "") -> None:
    """Skips or fails a test that starts io_uring, as the module says; probe_refusal is the
    probe's one line when it refused ("" when it found io_uring available or was not run)."""
    refused_by_kernel = kernel_refusal()
    if refused_by_kernel:
        pytest.skip(refused_by_kernel)
    if probe_refusal and IN_CI:
        pytest.fail(f"this machine's kernel allows io_uring, yet: {probe_refusal}")
    if probe_refusal:
        pytest.skip(probe_refusal)
