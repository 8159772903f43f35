"""Profile warnings (PROFILE=1): cells with a run whose samples do not add up to the CPU the
server was measured to use (the consistency check of results/profiles.py), so that its
layer shares are not shown as if they stood for where the time went. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, CellWarning, WarningKind
from httplab.results.profiles import CPU_TOLERANCE
from httplab.results.stability import cell_name

PROFILE_CAUSE = (f"The profile's samples x the sampling interval differ by more than "
                 f"{CPU_TOLERANCE:.0%} from the CPU the server was measured to use over the "
                 "same run, so its shares by layer may not stand for where the time went")
PROFILE_ADVICE = ("look for the profiler's messages in the server's log (raw/<server>.log) "
                  "and rerun; itimer (where the cpu event is not allowed, as in Docker) "
                  "loses samples more easily than cpu when many threads run at once")


def profile_warning(cell: Cell, label: str) -> CellWarning | None:
    """None when every profiled run of the cell passed the check (or had no CPU event)."""
    rounds = cell.rounds or tuple(range(1, len(cell.runs) + 1))
    marked = [f"round {round_number}: {profile.mismatch}" if len(rounds) > 1 else
              profile.mismatch for round_number, profile in zip(rounds, cell.profiles)
              if profile is not None and profile.mismatch]
    if not marked:
        return None
    name, detail = cell_name(cell, label), "; ".join(marked)
    return CellWarning(WarningKind.PROFILE, f"{name}: {detail}; {PROFILE_ADVICE}", name,
                       PROFILE_CAUSE, detail, PROFILE_ADVICE)


def profile_warnings(result: BenchResult) -> tuple[CellWarning, ...]:
    warnings = (profile_warning(cell, result.label(cell.server)) for cell in result.cells)
    return tuple(warning for warning in warnings if warning)
