"""What the tables and the chart show of a cell's profiles (PROFILE=1), or of a make latency
step's (its one profile, RateStep.profile). Pure.

A cell's samples, and each layer's, are sums over its runs that have a profile; a layer's
share is its samples over the cell's. Each run's profile keeps its own ten hottest frames,
so a cell's hottest are those lists summed over its runs. Each run's consistency check is
said per run: ok, marked (its samples do not add up to the CPU measured), not checked (not
a CPU event, or no CPU measured), or failed (the profiler failed on it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from httplab.model import BenchResult, Cell, HotFrame, RateStep, RunProfile
from httplab.presentation.views.latency_figures import run_steps
from httplab.results.profile_layers import LAYERS
from httplab.results.profiles import checkable

HOTTEST = 10  # the frames shown per cell, as each run's profile keeps them
ITIMER = "itimer"  # the CPU event that sees no kernel frames (model.CPU_PROFILE_EVENTS)
OK, MARKED, NOT_CHECKED, FAILED, NO_PROFILE = ("ok", "marked", "not checked", "failed",
                                               "no profile")
# What holds profiles: a bench's cell (a profile per measured run) or a latency step (one).
Profiled = Cell | RateStep


@dataclass(frozen=True)
class RunFinding:
    """What one run's profile says beyond its figures: the check's mismatch or a failure."""

    round_number: int
    status: str  # MARKED or FAILED
    text: str


def has_profiles(result: BenchResult) -> bool:
    """Whether any run of any cell carries a profile (or the profiler's failure on it)."""
    return any(profile is not None for cell in result.cells for profile in cell.profiles)


def carries_profile(item: Profiled) -> bool:
    """Whether a run of the cell, or the step, carries a profile (or the profiler's failure)."""
    profiles = (item.profile,) if isinstance(item, RateStep) else item.profiles
    return any(profile is not None for profile in profiles)


def profiled_steps(result: BenchResult) -> tuple[RateStep, ...]:
    """make latency's steps that carry a profile (or the profiler's failure on it)."""
    return tuple(step for step in run_steps(result) if step.profile is not None)


def profiled_cells(result: BenchResult) -> tuple[Cell, ...]:
    """The cells of the servers the profiler ran in, and any other cell with profiles."""
    return tuple(cell for cell in result.cells if _profiled(result, cell)
                 or any(profile is not None for profile in cell.profiles))


def _profiled(result: BenchResult, cell: Cell) -> bool:
    record = result.server(cell.server)
    return record is not None and record.profiled


def run_rounds(cell: Cell) -> tuple[int, ...]:
    """Each run's round, as its files are named (1, 2, ... when the cell has no rounds)."""
    return cell.rounds if len(cell.rounds) == len(cell.runs) else tuple(
        range(1, len(cell.runs) + 1))


def by_round(item: Profiled) -> list[tuple[int, RunProfile | None]]:
    """Each measured run's round and profile (None where the run has none); a step's is
    its round and its one profile."""
    if isinstance(item, RateStep):
        return [(item.repeat, item.profile)]
    profiles = item.profiles + (None,) * (len(item.runs) - len(item.profiles))
    return list(zip(run_rounds(item), profiles))


def sampled(cell: Profiled) -> list[RunProfile]:
    """The cell's profiles that hold samples: the profiler neither failed nor was absent."""
    return [p for _, p in by_round(cell) if p is not None and p.failure is None]


def cell_samples(cell: Profiled) -> int:
    return sum(profile.samples for profile in sampled(cell))


def cell_events(cell: Profiled) -> tuple[str, ...]:
    """The events its runs sampled, each once (one in any run this lab makes)."""
    return tuple(dict.fromkeys(p.event for _, p in by_round(cell) if p is not None))


def by_itimer(cell: Profiled) -> bool:
    """Whether a run of the cell was sampled by itimer: its "kernel" is libc's wrappers."""
    return ITIMER in cell_events(cell)


def layer_order(result: BenchResult) -> tuple[str, ...]:
    """The layers in the order the results show them (results/profile_layers.py), then any
    other layer a profile names (one an older or newer lab counted), as first seen."""
    named = (layer for item in (*result.cells, *profiled_steps(result))
             for profile in sampled(item) for layer, _ in profile.layers)
    return LAYERS + tuple(dict.fromkeys(layer for layer in named if layer not in LAYERS))


def layer_samples(cell: Profiled) -> Counter[str]:
    """Self samples by layer, summed over the cell's runs."""
    totals: Counter[str] = Counter()
    for profile in sampled(cell):
        totals.update(dict(profile.layers))
    return totals


def layer_shares(cell: Profiled, layers: tuple[str, ...]) -> tuple[float | None, ...]:
    """Each layer's share of the cell's samples, in the order given; None without samples."""
    total, samples = cell_samples(cell), layer_samples(cell)
    return tuple(samples[layer] / total if total else None for layer in layers)


def run_check(profile: RunProfile | None) -> str:
    """One run's consistency check, in a word."""
    if profile is None:
        return NO_PROFILE
    if profile.failure is not None:
        return FAILED
    if profile.mismatch is not None:
        return MARKED
    if not checkable(profile):
        return NOT_CHECKED
    return OK


def cell_check(cell: Profiled) -> str:
    """"ok" when every run's check is; else each run's: "run 1 ok, run 2 marked"."""
    checks = [(round_number, run_check(profile)) for round_number, profile in by_round(cell)]
    words = {check for _, check in checks}
    if len(words) == 1:
        return words.pop()
    return ", ".join(f"run {round_number} {check}" for round_number, check in checks)


def run_findings(cell: Profiled) -> list[RunFinding]:
    """The mismatch or failure of each run that has one, in the order of runs."""
    findings = []
    for round_number, profile in by_round(cell):
        if profile is not None and (profile.failure or profile.mismatch):
            status = FAILED if profile.failure else MARKED
            findings.append(RunFinding(round_number, status, profile.failure or profile.mismatch))
    return findings


def flame_graphs(cell: Profiled) -> list[tuple[int, str]]:
    """(round, raw/<stem>.flame.html) of each run that has one."""
    return [(round_number, profile.flame_graph_file) for round_number, profile in by_round(cell)
            if profile is not None and profile.flame_graph_file]


def hottest_frames(cell: Profiled, count: int = HOTTEST) -> list[HotFrame]:
    """The frames with the most self samples summed over the cell's runs' own hottest,
    most first (ties by name)."""
    totals: Counter[tuple[str, str]] = Counter()
    for profile in sampled(cell):
        totals.update({(hot.frame, hot.layer): hot.samples for hot in profile.hot_frames})
    ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    return [HotFrame(frame, layer, samples) for (frame, layer), samples in ranked[:count]]


def share_of(samples: int, cell: Profiled) -> float | None:
    """A count of samples as a share of the cell's; None without samples."""
    total = cell_samples(cell)
    return samples / total if total else None
