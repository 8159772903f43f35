"""Golden-file tests: each exporter's output for a fixed result, byte for byte.

After an intended format change, regenerate with HTTPLAB_UPDATE_GOLDEN=1 and review the diff."""

import json
import os

import pytest

from httplab.export import all_exporters
from httplab.serialize import FORMAT_VERSION, ResultsFormatError, result_from_dict

from .conftest import FIXTURES
from .sample_results import sample_result

GOLDEN = FIXTURES / "golden"


@pytest.mark.parametrize("exporter", all_exporters(), ids=lambda e: e.file_name)
def test_export_matches_golden_file(exporter):
    rendered = exporter.render(sample_result())
    golden = GOLDEN / exporter.file_name
    if os.environ.get("HTTPLAB_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(rendered)
    assert rendered == golden.read_text()


def test_json_round_trips_to_the_same_result():
    result = sample_result()
    (json_exporter,) = [e for e in all_exporters() if e.file_name == "results.json"]
    assert result_from_dict(json.loads(json_exporter.render(result))) == result


def test_json_carries_format_version_host_and_failure_reasons():
    data = json.loads(next(e for e in all_exporters() if e.file_name == "results.json")
                      .render(sample_result()))
    assert data["format_version"] == FORMAT_VERSION
    assert data["host"]["cpu_model"] == "Test CPU @ 3.40GHz"
    assert data["cells"][2]["status"] == "failed"
    assert data["cells"][2]["reason"].startswith("verification failed")
    assert data["cells"][0]["runs"][0]["latency_us"]["percentiles"]["p99.9"] == 120500.5


def test_markdown_successful_rate_excludes_non_2xx():
    markdown = next(e for e in all_exporters() if e.file_name == "results.md").render(sample_result())
    # 75561.34 req/s with 1000 of 761658 requests non-2xx: 75561.34 * 760658 / 761658
    assert "| Netty | 5 | 500 | 75561.34 | 75561.34–75561.34 | 0.0% | 75462.13 |" in markdown
    # the median of three runs, their range and coefficient of variation
    assert "| Netty | 10 | 500 | 69296.64 | 61000.50–72000.00 | 8.5% | 69296.64 |" in markdown


def test_unknown_format_version_is_refused():
    with pytest.raises(ResultsFormatError, match="version 99"):
        result_from_dict({"format_version": 99})


def test_a_multi_line_reason_stays_on_one_table_row():
    from dataclasses import replace

    from httplab.model import Cell, CellStatus

    result = sample_result()
    failed = Cell("undertow", 10, 500, CellStatus.FAILED, reason="never healthy; logs:\nline a\nx | y")
    result = replace(result, cells=(failed,))
    markdown = next(e for e in all_exporters() if e.file_name == "results.md").render(result)
    assert "| failed: never healthy; logs: / line a / x \\| y |" in markdown
