"""Reads a page's tables and text as a reader sees them (stdlib html.parser), for the tests
of the HTML pages that need no browser."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Row:
    classes: set[str]
    cells: list[str] = field(default_factory=list)  # each cell's text, spaces collapsed
    links: list[str] = field(default_factory=list)  # the hrefs in the row, in order


@dataclass
class Table:
    classes: set[str]
    section: str | None  # the id of the <section> around it
    headers: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)  # the body's rows


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self.text: list[str] = []
        self._section: str | None = None
        self._row: Row | None = None
        self._cell: list[str] | None = None
        self._in_head = False
        self._skip = 0  # inside <script> or <style>

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if tag in ("script", "style"):
            self._skip += 1
        elif tag == "section":
            self._section = attributes.get("id")
        elif tag == "table":
            self.tables.append(Table(classes, self._section))
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr" and self.tables:
            self._row = Row(classes)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "a" and self._row is not None and "href" in attributes:
            self._row.links.append(attributes["href"])
        elif tag in ("br", "li", "p", "div") and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1
        elif tag == "section":
            self._section = None
        elif tag == "thead":
            self._in_head = False
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.cells.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            table = self.tables[-1]
            if self._in_head:
                table.headers = self._row.cells
            else:
                table.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._skip:
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def page_tables(html: str) -> list[Table]:
    reader = _Reader()
    reader.feed(html)
    return reader.tables


def page_text(html: str) -> str:
    """Everything a reader sees, spaces collapsed (no scripts, no styles)."""
    reader = _Reader()
    reader.feed(html)
    return " ".join(" ".join(reader.text).split())
