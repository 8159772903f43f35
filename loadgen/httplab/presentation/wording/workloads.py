"""A workload's heading and the path plaintext requests, as results.md and the run page
say them. Pure."""

from __future__ import annotations

from urllib.parse import urlsplit

from httplab.model import BenchResult, Workload
from httplab.workloads import request_path


NOT_APPLICABLE = "not applicable"


def workload_heading(result: BenchResult, workload: Workload) -> str:
    """'### Workload: blocking 10 ms — GET /blocking?ms=10'."""
    return f"### Workload: {workload.label} — GET {request_path(workload, hello_path(result))}"


def hello_path(result: BenchResult) -> str:
    """The path plaintext requests: that of the target URL that is no other workload's (the
    settings list one URL per workload), / by default."""
    urls = result.settings.url.split(", ") if result.settings else []
    others = {request_path(workload, "").partition("?")[0]
              for workload in (result.settings.workloads if result.settings else ())
              if not workload.is_plaintext}
    paths = [urlsplit(url).path for url in urls]
    return next((path for path in paths if path and path not in others), "/")
