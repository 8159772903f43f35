#!/usr/bin/env bash
# Recapture the wrk fixtures in tests/fixtures/wrk/ (see the README there).
# Loads 127.0.0.1 only, every run bounded by -d, and stops every server it starts.
# Needs wrk, nginx and python3. Usage: tests/support/capture_wrk_fixtures.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
loadgen="$(cd "$here/../.." && pwd)"
fixtures="$loadgen/tests/fixtures/wrk"
work="$(mktemp -d /tmp/httplab-wrk-capture.XXXXXX)"
nginx_port=18081
python_port=18082
python_pid=""

stop_servers() {
    if [[ -f "$work/nginx.pid" ]]; then
        kill "$(cat "$work/nginx.pid")" || true
        # nginx removes its pid file as it exits
        for _ in $(seq 50); do [[ -f "$work/nginx.pid" ]] || break; sleep 0.1; done
    fi
    stop_python_server
    rm -rf "$work"
}
trap stop_servers EXIT

start_nginx() {
    cat >"$work/nginx.conf" <<EOF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 256; }
http {
    access_log off;
    server {
        listen 127.0.0.1:$nginx_port;
        default_type text/plain;
        location = /        { return 200 "hello world\n"; }
        location = /missing { return 404; }
        location = /broken  { return 500; }
    }
}
EOF
    nginx -p "$work" -e "$work/error.log" -c "$work/nginx.conf"
    wait_for_port "$nginx_port"
}

start_python_server() {
    python3 "$here/misbehaving_server.py" "$1" "$python_port" &
    python_pid=$!
    wait_for_port "$python_port"
}

stop_python_server() {
    if [[ -n "$python_pid" ]]; then
        kill "$python_pid" || true
        wait "$python_pid" 2>/dev/null || true
        python_pid=""
    fi
}

wait_for_port() {
    for _ in $(seq 50); do
        # ask the kernel rather than connect: a probe would use up the vanish server
        if [[ -n "$(ss -Hltn "sport = :$1")" ]]; then return 0; fi
        sleep 0.1
    done
    echo "nothing listens on 127.0.0.1:$1" >&2
    return 1
}

# capture NAME WRK-ARGS...: the report to NAME.txt, done.lua's JSON to NAME.json.
capture() {
    local name="$1"; shift
    echo "capturing $name: wrk $*" >&2
    HTTPLAB_WRK_JSON="$fixtures/$name.json" wrk -s "$loadgen/done.lua" "$@" >"$fixtures/$name.txt"
}

mkdir -p "$fixtures"
start_nginx
capture nginx-hello          -t2 -c10 -d1s "http://127.0.0.1:$nginx_port/"
capture nginx-hello-latency  -t2 -c10 -d1s --latency "http://127.0.0.1:$nginx_port/"
capture nginx-404            -t2 -c10 -d1s "http://127.0.0.1:$nginx_port/missing"
capture nginx-500            -t2 -c10 -d1s --latency "http://127.0.0.1:$nginx_port/broken"

start_python_server reset
capture reset-read-errors    -t2 -c10 -d1s "http://127.0.0.1:$python_port/"
stop_python_server

start_python_server slow
capture slow-timeouts        -t2 -c10 -d3s --timeout 1s --latency "http://127.0.0.1:$python_port/"
stop_python_server

start_python_server silent
capture silent-zero-requests -t2 -c10 -d1s "http://127.0.0.1:$python_port/"
stop_python_server

start_python_server vanish
capture refused-zero-requests   -t2 -c10 -d1s --latency "http://127.0.0.1:$python_port/"
stop_python_server
