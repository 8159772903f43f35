"""The tests that start io_uring for real skip where the kernel refuses it, saying so."""

from __future__ import annotations

from pathlib import Path

import pytest

from httplab.running.io_uring.probe import KERNEL_SETTING, KERNEL_SETTING_FILE


def require_kernel_allows_io_uring() -> None:
    setting = Path(KERNEL_SETTING_FILE)
    value = setting.read_text().strip() if setting.is_file() else "0"
    if value != "0":
        pytest.skip(f"{KERNEL_SETTING}={value} on this host")
