"""What the host did beside a measured run that can explain its result: other work on its
CPUs (foreign CPU) and its stalls (the stall meter's, counted only where the meter ran as a
real-time task). Neither is ever counted against the server. The rules, stated once here:

- notes on any verdict (a bench cell's or a latency step's): "busy with other work" at
  foreign CPU of at least FOREIGN_SHARE of the host's cores (0.5 of 2); "stalled" at a
  stall of at least STALL_US (make latency's default target for p99: such stalls over 1 %
  of a run break it alone);
- a latency step is the host's, not the server's ("host"), when the host stalled both long
  enough and often enough to break p99 by itself: a longest stall of at least
  STALL_SHARE_OF_TARGET of the target, and stalls covering at least STALL_SHARE_OF_TAIL of
  the tail p99 may lose (the 1 % of requests over the target): 0.5 % of the step. Held or
  not: the load tool stalls with the host, and the requests due while it was frozen are not
  counted from their due time, so such a step's latency understates what users would see.
  A step that did not hold is also the host's when foreign CPU reached FOREIGN_SHARE of
  the host's cores. A 40 ms stall every 300 ms (13 % of the step) is the host's; a 6 ms
  stall once in a step is not;
- the stalls are read CPU by CPU where each CPU had its meter, and the worst CPU decides:
  a stall that froze the load tool's CPU alone froze the load tool, however quiet the
  server's CPU was, and pooling the CPUs would dilute it (13 % on one of 2 CPUs reads as
  6.5 %). The words name that CPU and what ran there;
- a bench run has no target: it is the host's by the same rule against STALL_US;
- a round judged the host's (a bench run's, or a latency server's cost step or maximum) is
  left out of the comparison of two variants round by round.
Pure."""

from __future__ import annotations

from httplab.loadtools.stall_meter.__main__ import HERE
from httplab.model import Cell, HostStalls, LatencyResult, StepPurpose, StepVerdict

FOREIGN_SHARE = 0.25  # of the host's cores
STALL_US = 10_000.0
STALL_SHARE_OF_TARGET = 0.5  # the longest stall against the target p99
TAIL_SHARE = 0.01  # the requests p99 lets exceed the target
STALL_SHARE_OF_TAIL = 0.5  # the step's stalled time against TAIL_SHARE


def longest_stall(stalls: tuple[HostStalls | None, ...]) -> HostStalls | None:
    """The record of the longest stall over some runs' records, a CPU's where each CPU had
    its meter; None where none was measured by a meter that ran as a real-time task (an
    ordinary one also waits for the CPUs the run keeps busy, which is not the host
    stalling)."""
    records = [cpu for record in stalls if record for cpu in record.cpus or (record,)]
    return max((record for record in records if record.real_time and record.max_us is not None),
               key=lambda record: record.max_us, default=None)


def longest_stall_us(stalls: tuple[HostStalls | None, ...]) -> float | None:
    record = longest_stall(stalls)
    return None if record is None else record.max_us


def host_load_notes(foreign_cores: float | None, host_cores: float,
                    stall: HostStalls | None) -> str:
    """"; the host was busy with other work: 0.90 cores; the host stalled up to 38 ms on
    CPU 1 (load tool)" for what crossed its threshold (`stall`: the longest stall's
    record); empty when nothing did."""
    notes = []
    if busy_with_other_work(foreign_cores, host_cores):
        notes.append(_busy_words(foreign_cores))
    if stall is not None and stall.max_us is not None and stall.max_us >= STALL_US:
        notes.append(f"the host stalled up to {_ms(stall.max_us)}{cpu_words(stall)}")
    return "".join(f"; {note}" for note in notes)


def busy_with_other_work(foreign_cores: float | None, host_cores: float) -> bool:
    return foreign_cores is not None and foreign_cores >= FOREIGN_SHARE * host_cores


def host_broke_step(foreign_cores: float | None, host_cores: float,
                    stalls: HostStalls | None, slo_p99_us: float, held: bool) -> str | None:
    """Why the host, not the server, decided a latency step (`held`: whether its figures
    held the target), in words with its figures; None when the host was clean."""
    reasons = []
    if stalled := stalled_cpu(stalls, slo_p99_us):
        reasons.append(f"the host stalled up to {_ms(stalled.max_us)}{cpu_words(stalled)} "
                       f"({stalled.stalled_share:.1%} of the step)")
    if not held and busy_with_other_work(foreign_cores, host_cores):
        reasons.append(f"{_busy_words(foreign_cores)} of {host_cores:g}")
    return " and ".join(reasons) or None


def stalled_enough(stalls: HostStalls | None, slo_p99_us: float) -> bool:
    return stalled_cpu(stalls, slo_p99_us) is not None


def stalled_cpu(stalls: HostStalls | None, slo_p99_us: float) -> HostStalls | None:
    """The worst CPU's record (the largest share stalled) of those where a real-time meter
    saw a stall of a sizeable share of the target, and stalls over a sizeable share of the
    tail p99 may lose; the whole record where the CPUs had no meter each. None: none did."""
    if stalls is None:
        return None
    enough = [record for record in stalls.cpus or (stalls,)
              if _record_stalled_enough(record, slo_p99_us)]
    return max(enough, key=lambda record: (record.stalled_share, record.max_us), default=None)


def _record_stalled_enough(stalls: HostStalls, slo_p99_us: float) -> bool:
    if not stalls.real_time or stalls.max_us is None:
        return False
    share = stalls.stalled_share
    return (stalls.max_us >= STALL_SHARE_OF_TARGET * slo_p99_us and share is not None
            and share >= STALL_SHARE_OF_TAIL * TAIL_SHARE)


def cpu_words(stalls: HostStalls) -> str:
    """' on CPU 1 (load tool)', ' on CPU 0 of load generator 1 (ssh://b)'; '' for a record
    of no one CPU of this host."""
    role = f" ({stalls.role})" if stalls.role else ""
    elsewhere = stalls.place.partition(";")[0] != HERE
    cpu = "" if stalls.cpu is None else f" on CPU {stalls.cpu}{role}"
    return cpu + (f" {'of' if cpu else 'on'} {stalls.place}" if elsewhere else "")


def run_is_hosts(stalls: HostStalls | None) -> bool:
    """A bench run the host stalled enough to decide: as a step of make latency's default
    target."""
    return stalled_enough(stalls, STALL_US)


def step_is_hosts(verdict: StepVerdict) -> bool:
    return verdict is StepVerdict.HOST


def cell_host_rounds(cell: Cell) -> frozenset[int]:
    """The rounds of a bench cell whose run the host decided."""
    return frozenset(number for number, stalls in zip(cell.round_numbers, cell.host_stalls)
                     if run_is_hosts(stalls))


def server_host_rounds(latency: LatencyResult, server: str) -> frozenset[int]:
    """The rounds of a make latency server the host decided: its cost step was the host's,
    or the host left its maximum undetermined."""
    costs = {step.repeat for step in latency.steps_of(server, StepPurpose.COST)
             if step_is_hosts(step.verdict)}
    maximum = next((rate for rate in latency.maxima if rate.server == server), None)
    return frozenset(costs | set(maximum.host_rounds if maximum else ()))


def _busy_words(foreign_cores: float) -> str:
    return f"the host was busy with other work: {foreign_cores:.2f} cores"


def _ms(us: float) -> str:
    return f"{us / 1000:.0f} ms"
