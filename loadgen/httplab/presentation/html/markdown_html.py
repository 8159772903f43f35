"""results.md as HTML for a run's page, through markdown-it-py's token stream. Pure.

Raw HTML in the Markdown stays text (a frame such as `<init>` or a server's error line is
escaped). Every table becomes sortable (static/report.js) inside a scrolling wrapper, its
rows marked failed or warned by the caller's rule (row_marks.py); each heading, and each
paragraph that introduces a table (it ends in a colon), gets an id and an entry of the
page's table of contents; a link into the run folder stays only when the file is there."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

# (header, row, the text of the heading the table stands under) -> "failed", "warned" or None
RowMark = Callable[[tuple[str, ...], tuple[str, ...], "str | None"], "str | None"]
TABLE_CLASS = "sortable"
WRAP_OPEN, WRAP_CLOSE = '<div class="table-wrap">\n', "</div>\n"
ID_PREFIX = "md-"  # apart from the page's own ids
_TEXTS = ("text", "code_inline", "softbreak")  # the inline tokens a reader reads
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|#|/)", re.IGNORECASE)
# An introduction's title: what comes before its parenthesis and colon, "Where the CPU went
# (the rule is in the README, ...):", or all of it before the colon, "Netty (profiled) t5 c500:".
_INTRODUCTION = re.compile(r"(?P<title>.+?)(?: \(.*\))?:", re.DOTALL)


@dataclass(frozen=True)
class TocEntry:
    title: str
    anchor: str
    level: int  # 1: a heading, 2: a table's introduction


@dataclass(frozen=True)
class MarkdownHtml:
    html: Markup
    toc: tuple[TocEntry, ...]


def markdown_html(text: str, mark_row: RowMark, files: frozenset[str]) -> MarkdownHtml:
    parser = _parser()
    tokens = parser.parse(text)
    toc = _anchor(tokens)
    _mark_tables(tokens, mark_row)
    for token in tokens:
        if token.type == "inline":
            token.children = _links_kept(token.children or [], files)
    return MarkdownHtml(Markup(parser.renderer.render(tokens, parser.options, {})), toc)


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    parser.add_render_rule("table_open", _wrapped_open)
    parser.add_render_rule("table_close", _wrapped_close)
    return parser


def _wrapped_open(renderer, tokens: Sequence[Token], index: int, options, env) -> str:
    return WRAP_OPEN + renderer.renderToken(tokens, index, options, env)


def _wrapped_close(renderer, tokens: Sequence[Token], index: int, options, env) -> str:
    return renderer.renderToken(tokens, index, options, env) + WRAP_CLOSE


def plain_text(inline: Token) -> str:
    """What an inline token reads as: its text and code, without the Markdown around them."""
    return "".join(" " if child.type == "softbreak" else child.content
                   for child in inline.children or () if child.type in _TEXTS)


def _anchor(tokens: list[Token]) -> tuple[TocEntry, ...]:
    """Ids on headings and on the paragraphs that introduce a table; their entries."""
    entries: list[TocEntry] = []
    for index, token in enumerate(tokens):
        level = _toc_level(tokens, index)
        if level is None:
            continue
        text = plain_text(tokens[index + 1])
        title = _INTRODUCTION.fullmatch(text.rstrip())["title"] if level == 2 else text
        anchor = _unique(f"{ID_PREFIX}{slug(title)}", {entry.anchor for entry in entries})
        token.attrSet("id", anchor)
        entries.append(TocEntry(title, anchor, level))
    return tuple(entries)


def _toc_level(tokens: list[Token], index: int) -> int | None:
    token = tokens[index]
    if token.type == "heading_open":
        return 1
    introduces = (token.type == "paragraph_open" and index + 3 < len(tokens)
                  and tokens[index + 3].type == "table_open")
    return 2 if introduces and tokens[index + 1].content.rstrip().endswith(":") else None


def slug(text: str) -> str:
    """'Workload: db — GET /db' -> 'workload-db-get-db'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _unique(anchor: str, taken: set[str]) -> str:
    number, candidate = 1, anchor
    while candidate in taken:
        number += 1
        candidate = f"{anchor}-{number}"
    return candidate


def _mark_tables(tokens: list[Token], mark_row: RowMark) -> None:
    """Each table sortable; each body row marked by mark_row, given the heading above it."""
    heading: str | None = None
    header: tuple[str, ...] = ()
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = plain_text(tokens[index + 1])
        elif token.type == "table_open":
            token.attrJoin("class", TABLE_CLASS)
        elif token.type == "thead_open":
            header = _row_texts(tokens, index + 1)
        elif token.type == "tr_open" and tokens[index - 1].type != "thead_open":
            mark = mark_row(header, _row_texts(tokens, index), heading)
            if mark:
                token.attrJoin("class", mark)


def _row_texts(tokens: list[Token], tr_index: int) -> tuple[str, ...]:
    """The plain text of each cell of the row that opens at tr_index."""
    texts = []
    for token in tokens[tr_index + 1:]:
        if token.type == "tr_close":
            break
        if token.type == "inline":
            texts.append(plain_text(token))
    return tuple(texts)


def _links_kept(children: list[Token], files: frozenset[str]) -> list[Token]:
    """The inline tokens with every link into the run folder whose file is not in `files`
    turned into its text (its link_open and link_close dropped)."""
    kept, dropping = [], 0
    for child in children:
        if child.type == "link_open" and (dropping or not _resolves(child.attrGet("href"), files)):
            dropping += 1
        elif child.type == "link_close" and dropping:
            dropping -= 1
        else:
            kept.append(child)
    return kept


def _resolves(href: str | int | float | None, files: frozenset[str]) -> bool:
    """An address outside the run (a scheme, a fragment, an absolute path) is left as it is;
    markdown-it has percent-encoded the others."""
    text = str(href or "")
    return bool(_EXTERNAL.match(text)) or unquote(text) in files
