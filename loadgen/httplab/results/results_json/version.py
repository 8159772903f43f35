"""The version of results.json's format, and the versions this lab still reads."""

from __future__ import annotations

FORMAT_VERSION = 19
# Later versions added fields (3: each server's log file; 4: each run's round and the CPU
# figures beside the server's; 5: each run's end time, latency sample count and whether its
# histogram was exact, and for a run over several load generators each one's own run and
# their start skew; 6: the connections as a list (a sweep), whether h2load measured
# fairness, and each cell's h2load runs; 7: a make latency run's steps and maxima, null for
# a wrk bench; 8: each cell's and step's workload, the settings' workloads, each server's
# blocking pool and the pool's live threads in the resources; 9: the db and queries workloads
# (a workload's queries), the database's usage in the resources, the database as run in the
# settings, each server's db_pool and db_driver; 10: PROFILE, each run's and step's profile,
# whether each server was profiled and its framework packages, the settings' profile and
# profile_event; 11: each warning as an object, its kind, cell, cause, detail and advice
# beside its sentence, where earlier versions kept the sentence only; each cell's Little's
# law self-check, derived, with its warning kind "littles-law"; and, derived for the file's
# readers (not read back), the variants compared in a run that measured a framework under
# two or more variants: each figure's ratio of medians and its interval over the paired
# rounds; and each run's and step's host stalls, the stall meter's figures); 12: a step's
# "host" verdict and each maximum's host rounds; 13: the settings' JDKs, each server's JDK
# asked for, the garbage collector, most heap and vendor it said it ran on, whether it is
# beyond the 2019 write-up, and why a variant was not applicable, with its cells' status
# "not applicable"; 14: the settings' executors and each server's executor (EXECUTOR), and
# each cell's virtual threads pinned during each measured run (EXECUTOR=virtual: JFR's
# events, their time and top frames); 15: the settings' transports (TRANSPORT), each
# server's transport being the one it said it ran on, and the seccomp profile its
# container ran under (Docker: "default" or the shipped io_uring one); 16: the settings'
# protocols (PROTOCOL), streams and keep-alive, each server's protocol and the TLS engine it
# said it ran, and each run h2load measured (HTTP/2) its tool, the application protocol it
# spoke and its streams; 17: each variant compared's ratio is the paired estimate (the
# geometric mean of the rounds' paired ratios, its interval's centre) where it was the ratio
# of the medians, with its p-value, q-value among the run's comparisons of the same figure,
# the spread of its log ratios and the rounds left out (one side only, or the host's), all
# derived again from the rounds by make report; and each record of host stalls its CPU,
# what ran there (role), its steal time and, pooled, each CPU's own record (cpus); 18:
# REPEAT=auto, the settings' repeat "auto" beside the rounds it ran, its precision,
# max_repeat and metric (a file without them ran a fixed REPEAT), and derived, how its
# rounds ended (rounds_reached: why no more ran, each pair's half-width reached over its
# paired rounds); 19: the run's raw files' archive (raw_archive: its name and SHA-256, null
# for a run under way, interrupted, or whose raw files stayed plain); older files read
# with their defaults (plaintext, no
# database, no profile, no host stalls, no JDK asked, no pinned virtual threads, each
# warning's kind recovered from its sentence).
READABLE_VERSIONS = tuple(range(1, FORMAT_VERSION + 1))


class ResultsFormatError(ValueError):
    """results.json that this version cannot read."""
