#!/bin/sh
# fairness.sh OUT_STEM FROM_S TO_S PORT -- <h2load arguments...>
# Runs h2load, its stdout and stderr to OUT_STEM.h2load.txt, and reads its connections to
# PORT at FROM_S and TO_S seconds after it started (decimals allowed; a reading due after
# h2load has ended is not taken). Each reading goes to OUT_STEM.sockets.txt: a
# "# httplab sockets" header, then ss's lines (httplab/h2load/sockets.py reads them).
# Exits with h2load's exit code.
set -u
if [ $# -lt 5 ] || [ "$5" != "--" ]; then
    echo "usage: $0 OUT_STEM FROM_S TO_S PORT -- <h2load arguments...>" >&2
    exit 2
fi
stem=$1 from_s=$2 to_s=$3 port=$4
shift 5

tool=$(h2load --version 2>&1 | head -n 1)
: > "$stem.sockets.txt"
started=$(date +%s.%N)
h2load "$@" > "$stem.h2load.txt" 2>&1 &
h2load_pid=$!

elapsed() {
    awk -v from="$started" -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now - from }'
}

seconds_until() {
    awk -v at="$1" -v now="$(elapsed)" 'BEGIN { printf "%.3f", (at > now ? at - now : 0) }'
}

read_sockets() {
    kill -0 "$h2load_pid" 2>/dev/null || return 0
    echo "# httplab sockets at_s=$(elapsed) port=$port tool=$tool"
    ss -Htin state established "( dport = :$port )"
}

sleep "$(seconds_until "$from_s")"
read_sockets >> "$stem.sockets.txt"
sleep "$(seconds_until "$to_s")"
read_sockets >> "$stem.sockets.txt"
wait "$h2load_pid"
