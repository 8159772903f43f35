"""The layout of a run directory: the one place that names its files and folders.

    results/<UTC stamp>/           a run; results/latest links to the newest
        results.json, .md, .csv    what `httplab bench` and `httplab report` write
        raw.tar.xz                 once the run ended: its raw files (members raw/<name>),
                                   but the logs and flame graphs, which stay plain files
        .under-way                 while the run goes on: its mark (the running process),
                                   so that `make report` leaves the run alone
        index.html                 the run's page (presentation/html/), and beside the runs
                                   results/index.html, the list of runs, and results/assets/,
                                   the chart library the pages load
        raw/<server>.log           the server's whole output (every round's)
        raw/<stem>.txt, .json      wrk's report and done.lua's JSON of one measured run
        raw/<stem>.resources.json  the server's CPU and memory sampled during it
        raw/<stem>.stalls.json     the stall meter's record of the host's stalls during it
        raw/<stem>.stalls.<N>.json   with LOADGEN_HOSTS, the meter's on load generator N's
                                   engine (one record pools them all: results/collect.py)
        raw/<stem>.g<N>.txt, .json with several load generators, each one's report and
        raw/<stem>.generators.json   JSON, and the record of which one wrote which
        raw/<stem>.h2load-run.txt  an HTTP/2 cell's measured run (PROTOCOL h2c, h2), by h2load
                                   instead of wrk: the harness's line naming its arguments,
                                   then h2load's summary; and its --log-file, one line per
        raw/<stem>.h2load-requests.tsv   request, while h2load runs; once it ended, reduced to
        raw/<stem>.h2load-latency.json   statuses, exact figures and an HdrHistogram (runs
                                   before kept the log gzipped, .tsv.gz: still read)
        raw/<stem>.h2load.txt      h2load's run after it (fairness) and the socket
        raw/<stem>.sockets.txt       readings taken during that (loadgen/fairness.sh),
        raw/<stem>.connections.json  once h2load ended reduced to each connection's bytes
                                   (runs before kept the readings: still read)
        raw/<stem>.profile.json    PROFILE=1: the profiler's record of the run (event,
                                   interval, what failed), and its output: the collapsed
        raw/<stem>.collapsed.txt     stacks (what the layer table is read from) and the
        raw/<stem>.flame.html        flame graph (one self-contained page)
        raw/<stem>.pinned.json     EXECUTOR=virtual: the virtual threads pinned during the
                                   run, summed from JFR's recording of it, <stem>.pinned.jfr
                                   (removed once read; kept when it could not be)
        raw/unmeasured/<server>-<phase>[-r<N>].txt, .json   the primer and the warm-up
        raw/unmeasured.log         once the run ended without KEEP_UNMEASURED=1: a line for
                                   each unmeasured run, whose files are then dropped
        raw/[unmeasured/]<stem>.<tool>.cpu.txt   while a load tool runs in Docker: its CPU
                                   time, written by loadgen/cpu-times.sh once it exited,
                                   read into the run's resources and removed (wrk, h2load,
                                   oha; a step's too)
    make latency's runs (fixed rates):
        raw/<step>.oha.json        oha's JSON of one measured fixed-rate step
        raw/<step>.resources.json  the server's CPU and memory sampled during it
        raw/<step>.stalls.json     the stall meter's record of the host's stalls during it
        raw/<step>.profile.json, .collapsed.txt, .flame.html   PROFILE=1, as above
        raw/unmeasured/<step>.oha.json   the unmeasured run at that rate before it

A measured run's stem is <server>[-<workload>]-t<threads>-c<connections>[-r<round>], the
server by its key (netty, armeria@default), the workload by its key (json, delay-10ms,
blocking-10ms; plaintext, the original protocol, is never written, so runs made before
workloads existed keep their names); the round is there only when each cell is measured in
more than one. A fixed-rate step's is <server>[-<workload>]-q<rate>[-a<attempt>][-r<round>],
or <server>[-<workload>]-cost-q<rate> for the common-rate step of the cost comparison. Pure: names and paths are built and matched here, no file is touched."""

from __future__ import annotations

import glob
import re
from dataclasses import dataclass
from pathlib import Path

RAW = "raw"
UNMEASURED = "unmeasured"  # primer and warm-up output, kept apart from measured runs
LATEST = "latest"
RESULTS_JSON, RESULTS_MD, RESULTS_CSV = "results.json", "results.md", "results.csv"
RAW_ARCHIVE = "raw.tar.xz"  # a finished run's raw files, members named raw/<name>
UNDER_WAY = ".under-way"  # hidden: no page lists it
UNMEASURED_LOG = "unmeasured.log"  # in raw/, a plain file
RUN_PAGE = "index.html"  # the run's page; results/index.html, the same name, lists the runs
COMPARE_PAGE = "compare.html"  # make compare's page, never inside either run

TEXT_SUFFIX = ".txt"
JSON_SUFFIX = ".json"
RESOURCES_SUFFIX = ".resources.json"
STALLS_MARK = ".stalls"
STALLS_SUFFIX = STALLS_MARK + JSON_SUFFIX
GENERATORS_SUFFIX = ".generators.json"
H2LOAD_SUFFIX = ".h2load.txt"
H2LOAD_RUN_SUFFIX = ".h2load-run.txt"
H2LOAD_REQUESTS_SUFFIX = ".h2load-requests.tsv"
H2LOAD_LATENCY_SUFFIX = ".h2load-latency.json"
GZIP_SUFFIX = ".gz"
SOCKETS_SUFFIX = ".sockets.txt"
CONNECTIONS_SUFFIX = ".connections.json"
LOG_SUFFIX = ".log"
OHA_SUFFIX = ".oha.json"
PROFILE_SUFFIX = ".profile.json"
COLLAPSED_SUFFIX = ".collapsed.txt"
FLAME_GRAPH_SUFFIX = ".flame.html"
PINNED_SUFFIX = ".pinned.json"
PINNED_RECORDING_SUFFIX = ".pinned.jfr"
CPU_TIMES_SUFFIX = ".cpu.txt"  # after the tool's name: <stem>.wrk.cpu.txt
GENERATOR_MARK = ".g"  # <stem>.g<N>: generator N's part of a run over several
_ENGINE_STALLS = re.compile(rf"{re.escape(STALLS_MARK)}\.(?P<engine>\d+){re.escape(JSON_SUFFIX)}")

# A workload's key as names carry it (httplab/workloads.py; a test checks they agree).
WORKLOAD_KEY_PATTERN = r"json|db|queries-\d+|(?:delay|blocking)-\d+ms"
_WORKLOAD = rf"(?:-(?P<workload>{WORKLOAD_KEY_PATTERN}))?"
_STEP_STEM = re.compile(rf"(?P<server>.+?){_WORKLOAD}(?P<cost>-cost)?-q(?P<rate>\d+(?:\.\d+)?)"
                        r"(?:-a(?P<attempt>\d+))?(?:-r(?P<repeat>\d+))?")
_STEM = re.compile(rf"(?P<server>.+?){_WORKLOAD}-t(?P<threads>\d+)-c(?P<connections>\d+)"
                   r"(?:-r(?P<repeat>\d+))?")
# The names that mark a measured run, each a stem (that must parse) and a suffix; whether
# the run was spread over several generators.
_MEASURED_NAMES = (
    (re.compile(rf"(?P<stem>.+){re.escape(TEXT_SUFFIX)}"), False),
    (re.compile(rf"(?P<stem>.+){re.escape(GENERATOR_MARK)}(?P<generator>\d+)"
                rf"{re.escape(TEXT_SUFFIX)}"), True),
    (re.compile(rf"(?P<stem>.+){re.escape(GENERATORS_SUFFIX)}"), True),
    (re.compile(rf"(?P<stem>.+){re.escape(H2LOAD_RUN_SUFFIX)}"), False),
)


def _named_round(round_number: int, rounds: int) -> int | None:
    """The round a name carries: only when there are several."""
    return round_number if rounds > 1 else None


def _with_round(name: str, round_number: int | None) -> str:
    return name if round_number is None else f"{name}-r{round_number}"


def _with_workload(server: str, workload: str | None) -> str:
    """netty, or netty-blocking-10ms: plaintext (None) is never written."""
    return server if workload is None else f"{server}-{workload}"


def workload_key(key: str) -> str | None:
    """What names carry of a workload key: nothing for plaintext."""
    return None if key == "plaintext" else key


@dataclass(frozen=True)
class RunStem:
    """Whose measured run it is, as its files are named: netty-t10-c500, or netty-t10-c500-r2
    for round 2 when each cell is measured in several rounds."""

    server: str  # its key: netty, armeria@default
    threads: int
    connections: int
    repeat: int | None = None  # the round, written only when there are several
    workload: str | None = None  # its key (json, blocking-10ms); None: plaintext

    @classmethod
    def of_round(cls, server: str, threads: int, connections: int, round_number: int,
                 rounds: int, workload: str = "plaintext") -> RunStem:
        return cls(server, threads, connections, _named_round(round_number, rounds),
                   workload_key(workload))

    @classmethod
    def parse(cls, name: str) -> RunStem | None:
        """The stem a name such as armeria@default-t4-c64-r2 says, or None."""
        match = _STEM.fullmatch(name)
        if match is None:
            return None
        repeat = match["repeat"]
        return cls(match["server"], int(match["threads"]), int(match["connections"]),
                   None if repeat is None else int(repeat), match["workload"])

    @property
    def name(self) -> str:
        return _with_round(f"{_with_workload(self.server, self.workload)}-t{self.threads}"
                           f"-c{self.connections}", self.repeat)

    @property
    def round_number(self) -> int:
        return 1 if self.repeat is None else self.repeat


@dataclass(frozen=True)
class RunFiles:
    """The files one wrk run leaves, each its stem path and a suffix (stems may hold dots,
    so never Path.with_suffix)."""

    stem: Path  # raw/netty-t10-c500-r2, raw/unmeasured/netty-warmup

    @classmethod
    def of_output(cls, output: Path, suffix: str) -> RunFiles:
        """The files beside one of them: raw/netty-t10-c500.json, JSON_SUFFIX ->
        RunFiles(raw/netty-t10-c500); a name without the suffix is a stem whole."""
        return cls(output.with_name(output.name.removesuffix(suffix)))

    def _beside(self, suffix: str) -> Path:
        return self.stem.with_name(self.stem.name + suffix)

    @property
    def text(self) -> Path:
        return self._beside(TEXT_SUFFIX)

    @property
    def json(self) -> Path:
        return self._beside(JSON_SUFFIX)

    @property
    def resources(self) -> Path:
        return self._beside(RESOURCES_SUFFIX)

    @property
    def stalls(self) -> Path:
        return self._beside(STALLS_SUFFIX)

    def engine_stalls(self, index: int) -> Path:
        """The stall meter's record on load generator <index>'s engine: <stem>.stalls.<index>.json."""
        return self._beside(f"{STALLS_MARK}.{index}{JSON_SUFFIX}")

    def engine_stalls_pattern(self) -> str:
        """A glob of every engine's stall record beside the stem (engine_stalls_index reads
        which engine each is)."""
        return glob.escape(self.stem.name) + f"{STALLS_MARK}.*{JSON_SUFFIX}"

    def engine_stalls_index(self, name: str) -> int | None:
        """The engine whose stall record a file name of this stem is; None for any other."""
        if not name.startswith(self.stem.name):
            return None
        return engine_stalls_index(name[len(self.stem.name):])

    @property
    def generators(self) -> Path:
        return self._beside(GENERATORS_SUFFIX)

    @property
    def h2load(self) -> Path:
        return self._beside(H2LOAD_SUFFIX)

    @property
    def h2load_run(self) -> Path:
        return self._beside(H2LOAD_RUN_SUFFIX)

    @property
    def h2load_requests(self) -> Path:
        """h2load's --log-file as it writes it."""
        return self._beside(H2LOAD_REQUESTS_SUFFIX)

    @property
    def h2load_requests_gzipped(self) -> Path:
        """The same, gzipped once h2load ended (as runs before the latency record kept it)."""
        return self._beside(H2LOAD_REQUESTS_SUFFIX + GZIP_SUFFIX)

    @property
    def h2load_latency(self) -> Path:
        """The log's record, once h2load ended (as the run keeps it)."""
        return self._beside(H2LOAD_LATENCY_SUFFIX)

    @property
    def sockets(self) -> Path:
        return self._beside(SOCKETS_SUFFIX)

    @property
    def connections(self) -> Path:
        """The socket readings' record, once h2load ended (as the run keeps it)."""
        return self._beside(CONNECTIONS_SUFFIX)

    @property
    def oha(self) -> Path:
        return self._beside(OHA_SUFFIX)

    @property
    def profile(self) -> Path:
        return self._beside(PROFILE_SUFFIX)

    @property
    def collapsed(self) -> Path:
        return self._beside(COLLAPSED_SUFFIX)

    @property
    def flame_graph(self) -> Path:
        return self._beside(FLAME_GRAPH_SUFFIX)

    @property
    def pinned(self) -> Path:
        return self._beside(PINNED_SUFFIX)

    @property
    def pinned_recording(self) -> Path:
        return self._beside(PINNED_RECORDING_SUFFIX)

    def cpu_times(self, tool: str) -> Path:
        """<stem>.<tool>.cpu.txt: loadgen/cpu-times.sh's record of the tool's CPU time."""
        return self._beside(f".{tool}{CPU_TIMES_SUFFIX}")

    def generator(self, index: int) -> RunFiles:
        """Generator <index>'s part of a run over several: <stem>.g<index>.txt and .json."""
        return RunFiles(self._beside(f"{GENERATOR_MARK}{index}"))

    def of_generator(self, index: int, count: int) -> RunFiles:
        """One generator writes the run's own files, as one machine always did."""
        return self if count == 1 else self.generator(index)


def engine_stalls_index(ending: str) -> int | None:
    """Which engine's stall record a name's ending after its stem (.stalls.2.json) says;
    None for any other ending."""
    match = _ENGINE_STALLS.fullmatch(ending)
    return None if match is None else int(match["engine"])


def measured_files(raw_dir: Path, stem: RunStem) -> RunFiles:
    return RunFiles(raw_dir / stem.name)


def unmeasured_dir(raw_dir: Path) -> Path:
    return raw_dir / UNMEASURED


def unmeasured_files(raw_dir: Path, server: str, phase: str, round_number: int,
                     rounds: int, workload: str = "plaintext") -> RunFiles:
    """unmeasured/netty-warmup, or netty-warmup-r2 when every round warms the server again,
    netty-json-warmup for the json workload's."""
    name = _with_round(f"{_with_workload(server, workload_key(workload))}-{phase}",
                       _named_round(round_number, rounds))
    return RunFiles(unmeasured_dir(raw_dir) / name)


def server_log(server: str) -> str:
    """<server>.log, in the raw folder."""
    return f"{server}{LOG_SUFFIX}"


def database_log(server: str, round_number: int = 1, rounds: int = 1) -> str:
    """<server>.database.log (…-r<round>.database.log when repeated), in the raw folder: the
    whole log of the fresh database that server read."""
    suffix = f"-r{round_number}" if rounds > 1 else ""
    return f"{server}{suffix}.database{LOG_SUFFIX}"


def stays_plain(name: str) -> bool:
    """A raw file a user opens (a log, a flame graph) stays a plain file beside the archive."""
    return name.endswith(LOG_SUFFIX) or name.endswith(FLAME_GRAPH_SUFFIX)


def is_unmeasured(member: str) -> bool:
    """raw/unmeasured/<name>: a primer's or warm-up's file, by its path in the run."""
    return member.startswith(f"{RAW}/{UNMEASURED}/")


def raw_member(path: Path) -> tuple[Path, str] | None:
    """The run a path in its raw folder belongs to, and the path's name as an archive member
    (raw/<name>, raw/unmeasured/<name>); None for a path in no raw folder."""
    for index, folder in enumerate(path.parents):
        if folder.name == RAW:
            return folder.parent, path.relative_to(folder.parent).as_posix()
        if index >= 1:  # raw/<name> or raw/unmeasured/<name>, never deeper
            return None
    return None


def run_dir_of(raw_dir: Path) -> Path:
    """The run a raw folder belongs to; a folder of raw files from elsewhere is its own."""
    return raw_dir.parent if raw_dir.name == RAW else raw_dir


@dataclass(frozen=True)
class MeasuredName:
    """A file name in the raw folder that marks a measured run: its report <stem>.txt (or
    h2load's <stem>.h2load-run.txt), or of a run over several generators one's report
    <stem>.g<N>.txt or their record."""

    written: str  # the stem as the name has it (read as written: t08 stays t08)
    stem: RunStem
    generator: int | None = None  # whose report, for <stem>.g<N>.txt
    spread: bool = False  # the run was spread over several generators


def parse_measured_name(file_name: str) -> MeasuredName | None:
    """None for any other file: .json, .resources.json, .stalls.json, .h2load.txt, .sockets.txt,
    .collapsed.txt, .profile.json, .flame.html, .pinned.json, .pinned.jfr, .<tool>.cpu.txt,
    logs."""
    for pattern, spread in _MEASURED_NAMES:
        match = pattern.fullmatch(file_name)
        stem = None if match is None else RunStem.parse(match["stem"])
        if stem is not None:
            generator = match.groupdict().get("generator")
            return MeasuredName(match["stem"], stem, None if generator is None else int(generator),
                                spread)
    return None


@dataclass(frozen=True)
class StepStem:
    """Whose fixed-rate step it is: netty-q5000, netty-q5000-r2 in round 2 of several,
    netty-q5000-a2 for the second run of a rate that broke, or netty-cost-q5000 for the
    common-rate step of the cost comparison."""

    server: str
    rate: float  # requests a second
    cost: bool = False
    repeat: int | None = None  # the round, written only when there are several
    attempt: int = 1  # written from the second on
    workload: str | None = None  # its key (json, blocking-10ms); None: plaintext

    @classmethod
    def parse(cls, name: str) -> StepStem | None:
        match = _STEP_STEM.fullmatch(name)
        if match is None:
            return None
        repeat = match["repeat"]
        return cls(match["server"], float(match["rate"]), match["cost"] is not None,
                   None if repeat is None else int(repeat), int(match["attempt"] or 1),
                   match["workload"])

    @property
    def name(self) -> str:
        rate = int(self.rate) if float(self.rate).is_integer() else self.rate
        cost = "-cost" if self.cost else ""
        attempt = f"-a{self.attempt}" if self.attempt > 1 else ""
        server = _with_workload(self.server, self.workload)
        return _with_round(f"{server}{cost}-q{rate}{attempt}", self.repeat)

    @property
    def round_number(self) -> int:
        return 1 if self.repeat is None else self.repeat


def step_stem(server: str, rate: float, cost: bool, round_number: int, rounds: int,
              attempt: int = 1, workload: str = "plaintext") -> StepStem:
    return StepStem(server, rate, cost, _named_round(round_number, rounds), attempt,
                    workload_key(workload))


def step_files(raw_dir: Path, stem: StepStem, measured: bool = True) -> RunFiles:
    """raw/<step>.oha.json when measured, raw/unmeasured/<step>.oha.json for its warm-up."""
    return RunFiles((raw_dir if measured else unmeasured_dir(raw_dir)) / stem.name)


def parse_step_name(file_name: str) -> StepStem | None:
    """The step a measured fixed-rate file <step>.oha.json belongs to; None for any other."""
    if not file_name.endswith(OHA_SUFFIX):
        return None
    return StepStem.parse(file_name[:-len(OHA_SUFFIX)])
