"""`httplab settings --markdown`: docs/settings.md, the settings of `make bench` and `make
latency` as Markdown tables, from their one statement in bench_settings (what `make help`
lists). `make docs-settings` writes it; a test fails when the committed file differs."""

from __future__ import annotations

from httplab.bench_settings import BENCH_SETTINGS, LATENCY_LEFT_OUT, LATENCY_SETTINGS, variable

Setting = tuple[str, str, str]

HEADER = """\
# Settings

<!-- Generated from loadgen/httplab/bench_settings.py by `make docs-settings`: edit that
file, not this one (a test fails when they differ). -->

Every setting is a make variable, e.g. `make bench SERVERS=netty,vertx REPEAT=3`. A
variable reaches the harness only when you set it; unset, its default below applies.
`make help` prints the same lists. How each setting is used: [method.md](method.md).
"""


def settings_table(settings: tuple[Setting, ...]) -> str:
    rows = [f"| `{variable(flag)}` | {f'`{default}`' if default else 'empty'} | {meaning} |\n"
            for flag, default, meaning in settings]
    return "| variable | default | meaning |\n| --- | --- | --- |\n" + "".join(rows)


def settings_markdown() -> str:
    left_out = " and ".join(f"`{variable(flag)}`" for flag in LATENCY_LEFT_OUT)
    return (f"{HEADER}\n## make bench\n\n{settings_table(BENCH_SETTINGS)}\n"
            f"## make latency\n\nThe settings of `make bench` apply, but {left_out}, which "
            f"`make latency` refuses. Its own:\n\n{settings_table(LATENCY_SETTINGS)}")
