"""Plotly's JavaScript: the version pinned in loadgen/requirements.lock ships it in its
Python package; the pages load it from one shared folder beside the runs (ASSETS), under
a name that carries its version, so a page names the library it was drawn with."""

from __future__ import annotations

import re
from dataclasses import dataclass

ASSETS = "assets"  # beside the run folders: results/assets/
PLOTLY_PACKAGE_FILE = ("package_data", "plotly.min.js")  # inside the plotly package
_VERSION = re.compile(r"plotly\.js v(\d+\.\d+\.\d+)")


@dataclass(frozen=True)
class ChartLibrary:
    """The library a page loads: its file name in ASSETS."""

    version: str

    @property
    def file_name(self) -> str:
        return f"plotly-{self.version}.min.js"

    def href_from_run(self) -> str:
        """Its address from a page one folder below ASSETS' parent (a run's index.html)."""
        return f"../{ASSETS}/{self.file_name}"


def library_of(header: str) -> ChartLibrary:
    """The version in plotly.min.js's first lines ("* plotly.js v4.1.1")."""
    found = _VERSION.search(header)
    if found is None:
        raise ValueError("plotly.min.js names no version in its first lines")
    return ChartLibrary(found.group(1))
