"""results.md as the HTML of a run's page: every table sortable and wrapped, its rows of
failed and warned cells marked (one rule, row_marks.py), raw HTML in the Markdown escaped,
links kept only to files of the run, ids and a table of contents for the headings and for
the paragraphs that introduce a table."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from httplab.presentation.markdown.results import MarkdownExporter
from httplab.presentation.html.markdown_html import TocEntry, markdown_html, slug
from httplab.presentation.html.row_marks import RunMarks

from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result, workloads_sample_result


class _Tables(HTMLParser):
    """Each table of a page: its class, whether a div.table-wrap holds it, and its rows
    as (the row's class, its cells' text)."""

    def __init__(self, text: str):
        super().__init__()
        self.tables: list[dict] = []
        self._wrapped = False
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div":
            self._wrapped = attrs.get("class") == "table-wrap"
        elif tag == "table":
            self.tables.append({"class": attrs.get("class"), "wrapped": self._wrapped, "rows": []})
        elif tag == "tr":
            self.tables[-1]["rows"].append((attrs.get("class"), []))
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1]["rows"][-1][1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._wrapped = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _page_tables(result, files=frozenset()):
    rendered = markdown_html(MarkdownExporter().render(result), RunMarks(result).of_row, files)
    return rendered, _Tables(rendered.html).tables


def _no_marks(header, row, heading):
    return None


@pytest.mark.parametrize("result", [sample_result, workloads_sample_result, latency_sample_result])
def test_every_table_is_sortable_and_wrapped(result):
    rendered, tables = _page_tables(result())
    assert tables and all(table["class"] == "sortable" and table["wrapped"] for table in tables)
    assert rendered.html.count('<div class="table-wrap">') == len(tables)


def test_the_rows_of_failed_and_warned_cells_are_marked_in_every_table_of_cells():
    """The sample: Netty t10 c500 and t5 c500 warned (an example warning, skewed
    generators), both Undertow cells failed, Netty t10 c16 neither."""
    _, tables = _page_tables(sample_result())
    of_cells = [table for table in tables if table["rows"][0][1][:3] == [
        "Framework", "Threads", "Connections"]]
    assert len(of_cells) == 3, "cells, where the CPU went, fairness"
    for table in of_cells:
        assert [mark for mark, _ in table["rows"][1:]] == [
            "warned", "warned", "failed", "failed", None]


def test_a_workload_s_rows_are_marked_by_the_heading_they_stand_under():
    """Undertow is noisy on blocking only: its plaintext and json rows are not warned."""
    _, tables = _page_tables(workloads_sample_result())
    undertow = [mark for table in tables for mark, cells in table["rows"][1:]
                if cells and cells[0] == "Undertow (200 workers)" and len(cells) > 3]
    assert undertow.count("warned") == 3, "blocking: its cells, bound and CPU tables"
    assert set(undertow) == {None, "warned"}


@pytest.mark.parametrize("header, row, heading, expected", [
    (("Framework", "Threads", "Connections", "Status"), ("Netty", "4", "256", "ok"),
     "Workload: blocking 10 ms — GET /blocking?ms=10", None),
    (("Framework", "Threads", "Connections", "Status"),
     ("Undertow (200 workers)", "4", "256", "ok"),
     "Workload: blocking 10 ms — GET /blocking?ms=10", "warned"),
    (("Framework", "Threads", "Connections"), ("Undertow (200 workers)", "4", "256"),
     "Workload: json — GET /json", None),
    (("Framework", "Threads", "Connections"), ("Undertow (200 workers)", "4", "256"),
     None, None),  # three cells match, none is told apart
    (("Framework", "Workload", "Threads", "Connections"),
     ("Undertow (200 workers)", "blocking 10 ms", "4", "256"), None, "warned"),
    (("Framework", "Threads", "Connections", "Status"),
     ("nginx (ceiling reference)", "—", "—", "not applicable: nginx has no /blocking endpoint"),
     "Workload: blocking 10 ms — GET /blocking?ms=10", None),
    (("Framework", "Round", "Verdict"), ("Netty", "2", "failed: the server stopped"), None,
     "failed"),
    (("Framework", "Threads", "Connections", "Status"), ("Quarkus", "4", "256", "failed: x"),
     None, "failed"),
    (("Server", "Version"), ("Netty", "4.2.18.Final"), None, None),
])
def test_a_row_s_mark(header, row, heading, expected):
    assert RunMarks(workloads_sample_result()).of_row(header, row, heading) == expected


def test_raw_html_in_a_cell_stays_text():
    text = ("| Frame | Reason |\n| --- | --- |\n| `<init>` | failed: <script>alert(1)</script> "
            "& <b>bold</b> |\n")
    html = str(markdown_html(text, _no_marks, frozenset()).html)
    assert "<script>" not in html and "<b>" not in html
    assert "<code>&lt;init&gt;</code>" in html
    assert "failed: &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in html


@pytest.mark.parametrize("link, kept", [
    ("raw/netty-t5-c500.flame.html", True),
    ("raw/armeria@default+profiled-t5-c500-r2.flame.html", True),
    ("raw/undertow-t5-c500.flame.html", False),  # not in the folder
    ("https://example.org/", True),  # not the run's: left as written
    ("#md-servers-as-run", True),
])
def test_a_link_into_the_run_stays_only_when_its_file_is_there(link, kept):
    files = frozenset({"raw/netty-t5-c500.flame.html",
                       "raw/armeria@default+profiled-t5-c500-r2.flame.html"})
    html = str(markdown_html(f"| Flame graphs |\n| --- |\n| [run 1]({link}) |\n", _no_marks,
                             files).html)
    assert (f'<a href="{link}">run 1</a>' in html) is kept
    assert "run 1" in html, "the text stays"


def test_headings_and_the_paragraphs_that_introduce_a_table_are_in_the_contents():
    text = "\n\n".join((
        "## Max sustainable rate", "A sentence, not an introduction.",
        "Where the CPU went (the rule is in the README, \"Bottlenecks\"):", "| A |\n| --- |\n| 1 |",
        "Netty (profiled) t5 c500:", "| A |\n| --- |\n| 2 |",
        "Where the CPU went (again):", "| A |\n| --- |\n| 3 |",
        "A closing line:"))
    rendered = markdown_html(text, _no_marks, frozenset())
    assert rendered.toc == (
        TocEntry("Max sustainable rate", "md-max-sustainable-rate", 1),
        TocEntry("Where the CPU went", "md-where-the-cpu-went", 2),
        TocEntry("Netty (profiled) t5 c500", "md-netty-profiled-t5-c500", 2),
        TocEntry("Where the CPU went", "md-where-the-cpu-went-2", 2))
    for entry in rendered.toc:
        assert str(rendered.html).count(f'id="{entry.anchor}"') == 1
    assert '<p id="md-where-the-cpu-went">Where the CPU went (the rule' in rendered.html


@pytest.mark.parametrize("text, expected", [
    ("Workload: blocking 10 ms — GET /blocking?ms=10",
     "workload-blocking-10-ms-get-blocking-ms-10"),
    ("Servers as run", "servers-as-run"),
    ("µ", "section"),
])
def test_an_id_is_made_of_the_title_s_letters_and_digits(text, expected):
    assert slug(text) == expected
