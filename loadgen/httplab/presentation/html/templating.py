"""The one Jinja2 environment of the pages: templates/ for the pages, static/ for the CSS
and the lab's own scripts, which each page carries inline (only Plotly's library is a
file of its own, stored once beside the runs: assets.py)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


@lru_cache(maxsize=None)
def static_text(name: str) -> Markup:
    """A file of static/ (report.css, report.js, charts.js), to inline in a page."""
    return Markup((STATIC / name).read_text(encoding="utf-8"))


def json_for_script(value: object) -> Markup:
    """JSON safe inside <script type="application/json">: no "</" can end the element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return Markup(text.replace("</", "<\\/"))


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(
        enabled_extensions=("html", "j2"), default_for_string=True),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)
    env.globals["static"] = static_text
    env.filters["script_json"] = json_for_script
    return env


def render(template: str, **context: object) -> str:
    """The text of one page from templates/<template>."""
    return environment().get_template(template).render(**context)
