"""The bench settings, stated only here: each flag of `httplab bench` with its default and
meaning, and the facts those defaults name; and their two listings, `make help`'s and
docs/settings.md's. The Makefile passes a VARIABLE (the flag in capitals, - as _) only
when the user sets it. Imports only the leaf addresses.py, so parsing the command line
loads no runner."""

from __future__ import annotations

from pathlib import Path

from httplab.addresses import LOOPBACK
from httplab.axes import AXES

PRIMER_CONNECTIONS = 8
DEFAULT_CV_THRESHOLD = 0.05
AUTO_REPEAT = "auto"
# METRIC: the figure REPEAT=auto narrows (make latency: the max sustainable rate, or the CPU
# per request at the common rate).
ROUND_METRICS = ("requests_per_sec", "cpu_per_request")
BACKENDS = ("docker", "local")
BASE_IMAGE_CHOICES = ("auto", "official", "local")
DEFAULT_IMAGE = Path("image") / "result1.png"
IMAGE_HELP = ("the Requests/sec chart, relative to the repository; the latency and memory, "
              "CPU, sweep and fairness charts go beside it (result2.png, result-cpu.png, "
              "result3.png, result4.png)")

# The variant axes a make variable sets, each as its entry in axes.py says (REPLICA, make
# calibrate's own, has none): empty where each framework then takes its own value.
AXIS_SETTINGS = tuple((axis.setting.lower(), "" if axis.own_when_empty else axis.default,
                       axis.meaning) for axis in AXES if axis.meaning)
# (flag, default, meaning)
BENCH_SETTINGS = (
    ("servers", "all", "comma-separated server folders, or 'all'"),
    ("threads", "10,5", "wrk threads; one run per value"),
    ("connections", "500", "wrk connections; several (16,128,500) measure each server at each"),
    ("duration", "10s", "per run: 10s, 2m, 1h"),
    ("repeat", "1", "rounds: each starts, warms and measures every server again (rotated); "
                    f"{AUTO_REPEAT}: at least 3, more while a pair of variants compared is "
                    "measured less precisely than PRECISION"),
    ("precision", "5", f"REPEAT={AUTO_REPEAT}: the half-width, in %, that every compared "
                       "pair's 95 % interval must narrow to (5: ±5 %)"),
    ("max-repeat", "10", f"REPEAT={AUTO_REPEAT}: the most rounds it runs (at least 3)"),
    ("metric", ROUND_METRICS[0], f"REPEAT={AUTO_REPEAT}: the figure narrowed: "
                                 f"{' or '.join(ROUND_METRICS)} (make latency: the max "
                                 "sustainable rate, or the CPU per request at the common "
                                 "rate)"),
    ("primer", "5s", f"unmeasured run at {PRIMER_CONNECTIONS} connections first; 0 for none"),
    ("warmup", "10s", "unmeasured run at full settings before the measured ones; 0 for none"),
    ("keep-unmeasured", "0", "1: keep the primer's and warm-up's raw files (raw/unmeasured/) in "
                             "the run's archive; 0: drop them when the run ends, a line each "
                             "in raw/unmeasured.log"),
    ("server-cpus", "", "cpuset for the server, e.g. 1 (empty: every CPU)"),
    ("loadgen-cpus", "", "cpuset for wrk, e.g. 0 (empty: every CPU)"),
    ("cv-threshold", str(DEFAULT_CV_THRESHOLD),
     "warn when a cell's coefficient of variation is above this"),
    *AXIS_SETTINGS,
    ("streams", "1", "HTTP/2 requests in flight per connection (h2load's -m, oha's -p), for "
                     "h2c and h2; 1 compares with HTTP/1.1's one per connection"),
    ("ceiling", "1", "1: measure the reference server (nginx) first, as the ceiling; 0: do not"),
    ("fairness", "1", "1: h2load after each measured run, as long, for per-connection "
                      "fairness; 0: do not"),
    ("workload", "plaintext", "what each request asks: plaintext (hello world), json, delay "
                              "(an answer after DELAY_MS, no thread held), blocking (a pool "
                              "thread held DELAY_MS), db (a random row of PostgreSQL), queries "
                              "(QUERIES rows), or several, comma-separated"),
    ("delay-ms", "10", "the wait of the delay and blocking workloads, in ms (1-10000)"),
    ("queries", "20", "the rows per request of the queries workload, one statement each "
                      "(1-500)"),
    ("backend", "docker", "docker, or local (java -jar and wrk on this host)"),
    ("base-images", "auto", "docker: official images, local ones (make base-images), or auto: "
                            "official when they can be pulled"),
    ("image", str(DEFAULT_IMAGE), IMAGE_HELP),
    ("server-host", "", "docker: the engine that runs the server: ssh://user@host, a Docker "
                        "context or unix:///path.sock (empty: this machine)"),
    ("loadgen-hosts", "", "docker: the engines that run wrk, comma-separated, the load split "
                          "between them (empty: this machine)"),
    ("target-address", "", "the server's address as the load generators reach it, the only "
                           f"one it binds (empty: SERVER_HOST's host, or {LOOPBACK})"),
    ("profile-event", "cpu", "what PROFILE samples: cpu (the kernel's CPU clock where allowed, "
                             "itimer where not), itimer, wall or alloc"),
)
# make latency: the bench's settings but FAIRNESS and LOADGEN_HOSTS (oha runs on this
# machine), and its own; THREADS and CONNECTIONS are the primer's and warm-up's (wrk).
LATENCY_SETTINGS = (
    ("rates", "auto", "fixed rates in req/s, increasing (1000,2000,5000), or auto: from 1000, "
                      "x2 until a step breaks the target, then halved to within 5 %"),
    ("slo-p99", "10ms", "the target: p99 latency at most this (500us, 10ms, 1s), with 99 % of "
                        "the rate answered and at most 0.1 % errors"),
    ("cost-rate", "", "req/s at which every server's CPU per request is compared (empty: the "
                      "lowest of the servers' maxima, in a second pass)"),
    ("step-warmup", "2s", "an unmeasured run at each step's rate before it; 0 for none"),
    ("keepalive", "1", "1: requests reuse their connections; 0: a new connection (and TLS "
                       "handshake) for every request, HTTP/1.1 only: the handshake rate"),
    ("url", "", "measure a server you started (http://127.0.0.1:9000/) instead of the lab's: "
                "no start and no conformance check, one GET must answer 2xx"),
)
# make calibrate: the bench's settings with these defaults (one server, five rounds, no
# ceiling and no h2load), but IMAGE: it draws its charts in its page only, never over the
# committed ones. Each server it measures runs twice in every round (an A/A).
CALIBRATE_DEFAULTS = {"servers": "netty", "repeat": "5", "ceiling": "0", "fairness": "0"}
CALIBRATE_LEFT_OUT = ("image",)
CALIBRATE_FLAGS = tuple((flag, CALIBRATE_DEFAULTS.get(flag, default), meaning)
                        for flag, default, meaning in BENCH_SETTINGS
                        if flag not in CALIBRATE_LEFT_OUT)
# make pairing-study: an A/A of one server in two designs, whole rounds and alternating
# pairs (httplab/studies/): the bench's settings it takes, with its own defaults, and its own.
PAIRING_STUDY_TAKES = ("servers", "threads", "connections", "duration", "primer", "warmup",
                       "server-cpus", "loadgen-cpus", "jdk", "backend", "base-images")
PAIRING_STUDY_DEFAULTS = {"servers": "netty", "threads": "10"}
PAIRING_STUDY_SETTINGS = (
    ("rounds", "8", "whole rounds: each starts, primes, warms and measures each side once "
                    "(one DURATION run), then stops it"),
    ("starts", "4", "alternating: starts of both sides at once on two ports, each primed and "
                    "warmed once"),
    ("pairs", "6", "alternating: pairs of DURATION runs per start, in A B B A order"),
    ("out", "docs/studies/pairing", "the study's files, OUT.json and OUT.md, relative to the "
                                    "repository"),
)
PAIRING_STUDY_FLAGS = tuple((flag, PAIRING_STUDY_DEFAULTS.get(flag, default), meaning)
                            for flag, default, meaning in BENCH_SETTINGS
                            if flag in PAIRING_STUDY_TAKES) + PAIRING_STUDY_SETTINGS
LATENCY_LEFT_OUT = ("fairness", "loadgen-hosts")
LATENCY_FLAGS = tuple(row for row in BENCH_SETTINGS if row[0] not in LATENCY_LEFT_OUT) \
    + LATENCY_SETTINGS
CHOICES = {"backend": BACKENDS, "base-images": BASE_IMAGE_CHOICES}
DEFAULTS = {flag: default for flag, default, _ in BENCH_SETTINGS + LATENCY_SETTINGS}


def variable(flag: str) -> str:
    """'server-cpus' -> 'SERVER_CPUS', as make takes it."""
    return flag.upper().replace("-", "_")


def settings_text(settings: tuple[tuple[str, str, str], ...] = BENCH_SETTINGS) -> str:
    """The settings as make takes them, with their defaults and meanings."""
    rows = [(f"{variable(flag)}={default}", meaning) for flag, default, meaning in settings]
    width = max(len(setting) for setting, _ in rows)
    return "".join(f"  {setting:<{width}}  {meaning}\n" for setting, meaning in rows)


SETTINGS_DOC_HEADER = """\
# Settings

<!-- Generated from loadgen/httplab/bench_settings.py by `make docs-settings`: edit that
file, not this one (a test fails when they differ). -->

Every setting is a make variable, e.g. `make bench SERVERS=netty,vertx REPEAT=3`. A
variable reaches the harness only when you set it; unset, its default below applies.
`make help` prints the same lists. How each setting is used: [method.md](method.md).
"""


def settings_table(settings: tuple[tuple[str, str, str], ...]) -> str:
    """The settings as a Markdown table: variable, default (or "empty"), meaning."""
    rows = [f"| `{variable(flag)}` | {f'`{default}`' if default else 'empty'} | {meaning} |\n"
            for flag, default, meaning in settings]
    return "| variable | default | meaning |\n| --- | --- | --- |\n" + "".join(rows)


def settings_markdown() -> str:
    """docs/settings.md (`httplab settings --markdown`, `make docs-settings`)."""
    left_out = " and ".join(f"`{variable(flag)}`" for flag in LATENCY_LEFT_OUT)
    return (f"{SETTINGS_DOC_HEADER}\n## make bench\n\n{settings_table(BENCH_SETTINGS)}\n"
            f"## make latency\n\nThe settings of `make bench` apply, but {left_out}, which "
            f"`make latency` refuses. Its own:\n\n{settings_table(LATENCY_SETTINGS)}\n"
            f"## make calibrate\n\nThe settings of `make bench` apply, but "
            f"{' and '.join(f'`{variable(flag)}`' for flag in CALIBRATE_LEFT_OUT)}, with "
            f"defaults of its own: {_assignments(calibrate_defaults())}.\n"
            f"\n## make pairing-study\n\nOf the settings of `make bench`, "
            f"{', '.join(f'`{variable(flag)}`' for flag in PAIRING_STUDY_TAKES)}, with "
            f"defaults of its own: {_assignments(pairing_study_defaults())}. Its own:\n\n"
            f"{settings_table(PAIRING_STUDY_SETTINGS)}")


def _assignments(settings: tuple[tuple[str, str, str], ...]) -> str:
    """'`SERVERS=netty`, `REPEAT=5`'."""
    return ", ".join(f"`{variable(flag)}={default}`" for flag, default, _ in settings)


def calibrate_defaults() -> tuple[tuple[str, str, str], ...]:
    """The settings whose defaults make calibrate changes, as it takes them."""
    return tuple(row for row in CALIBRATE_FLAGS if row[0] in CALIBRATE_DEFAULTS)


def pairing_study_defaults() -> tuple[tuple[str, str, str], ...]:
    """The bench settings whose defaults make pairing-study changes, as it takes them."""
    return tuple(row for row in PAIRING_STUDY_FLAGS if row[0] in PAIRING_STUDY_DEFAULTS)
