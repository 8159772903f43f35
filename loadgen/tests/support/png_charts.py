"""What the tests of the PNG charts read back: a PNG's size, and a drawn figure's bars and
texts."""

import struct

from matplotlib.container import BarContainer

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def bars(axes) -> list:
    return [patch for container in axes.containers if isinstance(container, BarContainer)
            for patch in container.patches]


def center(patch) -> float:
    return patch.get_x() + patch.get_width() / 2


def texts(axes, text: str) -> list:
    return [t for t in axes.texts if t.get_text() == text]


def value_labels(axes) -> dict[float, str]:
    """bar_label's annotations by the x of the bar they stand on."""
    return {round(t.xy[0], 6): t.get_text() for t in axes.texts if hasattr(t, "xy")}
