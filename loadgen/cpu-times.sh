#!/bin/sh
# cpu-times.sh CPU_FILE TOOL [ARGUMENTS...]
# Runs TOOL with its arguments (its stdin, stdout and stderr untouched), waits for it, then
# writes to CPU_FILE the CPU time of the children this shell waited for: its own
# /proc/<pid>/stat line (cutime and cstime: the tool's user and system time, with that of
# every child the tool waited for in turn, fairness.sh's h2load and ss) and the clock ticks
# a second they count in. Exits with TOOL's exit code; a CPU_FILE it cannot write only
# says so on stderr. The harness reads the file (httplab/running/resources/parse.py) and
# removes it.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 CPU_FILE TOOL [ARGUMENTS...]" >&2
    exit 2
fi
cpu_file=$1
shift
"$@"
code=$?
# read is a builtin: /proc/self would be a child's; $$ is this shell.
read -r stat < "/proc/$$/stat"
{ echo "clock_ticks_per_second $(getconf CLK_TCK)"; echo "stat $stat"; } > "$cpu_file" ||
    echo "$0: cannot write $cpu_file" >&2
exit "$code"
