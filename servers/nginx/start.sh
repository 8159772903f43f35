#!/bin/bash
# Starts nginx as the lab's ceiling reference and, once it answers GET / with 200, prints
# the httplab-ready line the Java servers print (nginx cannot print it itself). Takes the
# Java servers' settings, by the same rules (servers/common ServerConfig.java):
#   PORT, WORKERS   default: port and workers of the server.toml beside this script
#                   ("cpus": one worker per CPU this process may use)
#   BIND_ADDRESS    default 0.0.0.0
# A bad value exits 2 with one line naming the variable; a port in use exits 1. Also:
#   HTTPLAB_NGINX        the nginx binary (default /usr/sbin/nginx)
#   HTTPLAB_RUNTIME_DIR  a writable directory for nginx's config, pid and temp files
#                        (default: a new one under TMPDIR or /tmp, removed at the end)
# SIGTERM and SIGINT go on to nginx, which stops at once; the script exits with it.
set -euo pipefail

readonly HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly MANIFEST=$HERE/server.toml
readonly FRAMEWORK=nginx TRANSPORT=epoll  # transport: the config's `use epoll`
readonly MAX_WORKERS=100000 EXIT_BAD_CONFIG=2 EXIT_CANNOT_BIND=1
nginx_pid= stopping= created_dir=

fail() {  # message exit-code
  echo "httplab $FRAMEWORK: $1" >&2
  exit "$2"
}

manifest_value() {  # key: its value in server.toml, without quotes
  sed -n -E "s/^$1[[:space:]]*=[[:space:]]*\"?([^\"#[:space:]]*)\"?.*/\1/p" "$MANIFEST" | head -n 1
}

trim() {  # text: without leading and trailing white space, as Java's String.trim()
  local text=${1#"${1%%[![:space:]]*}"}
  echo "${text%"${text##*[![:space:]]}"}"
}

int_setting() {  # name fallback min max: the variable's value, or exit 2 as ServerConfig does
  local name=$1 fallback=$2 min=$3 max=$4 raw=${!1-} value
  value=$(trim "$raw")
  if [[ -z $value ]]; then
    echo "$fallback"
    return
  fi
  if [[ $value =~ ^\+?0*([0-9]{1,9})$ ]] && (( 10#${BASH_REMATCH[1]} >= min
                                               && 10#${BASH_REMATCH[1]} <= max )); then
    echo $(( 10#${BASH_REMATCH[1]} ))
    return
  fi
  fail "$name must be an integer from $min to $max, got '$raw'" "$EXIT_BAD_CONFIG"
}

default_workers() {  # the manifest's workers, "cpus" read as this process's CPU count
  local workers
  workers=$(manifest_value workers)
  if [[ $workers == cpus ]]; then
    # nproc counts the CPUs of this process's affinity (a cpuset), as the JVM does;
    # the OMP_* variables would change its answer.
    env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc
  else
    echo "$workers"
  fi
}

bind_address() {  # BIND_ADDRESS trimmed, default 0.0.0.0; empty when set is exit 2
  local value
  value=$(trim "${BIND_ADDRESS-0.0.0.0}")
  [[ -n $value ]] || fail "BIND_ADDRESS must not be empty" "$EXIT_BAD_CONFIG"
  echo "$value"
}

listen_address() {  # bind port: nginx's form, an IPv6 address in brackets
  if [[ $1 == *:* ]]; then echo "[$1]:$2"; else echo "$1:$2"; fi
}

probe_host() {  # bind: where to ask; a wildcard bind answers on loopback
  case $1 in
    0.0.0.0) echo 127.0.0.1 ;;
    ::) echo ::1 ;;
    *) echo "$1" ;;
  esac
}

nginx_version() {  # "nginx version: nginx/1.22.1" -> 1.22.1
  local text
  text=$("$1" -v 2>&1) || fail "cannot run $1: $text" 1
  echo "${text##*/}"
}

render_config() {  # runtime-dir workers listen
  sed -e "s|@RUNTIME_DIR@|$1|g" -e "s|@WORKERS@|$2|g" -e "s|@LISTEN@|$3|g" \
    "$HERE/nginx.conf.template" > "$1/nginx.conf"
}

answers() {  # host port: does GET / get a 200 now? (bash's /dev/tcp: no curl needed)
  (
    exec 3<>"/dev/tcp/$1/$2"
    printf 'GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$1" >&3
    read -r -t 2 status <&3
    [[ $status == "HTTP/1."?" 200"* ]]
  ) 2>/dev/null
}

nginx_running() {
  kill -0 "$nginx_pid" 2>/dev/null
}

wait_until_answering() {  # host port: 0 once nginx answers, 1 when it stopped first
  until answers "$1" "$2"; do
    nginx_running || return 1
    sleep 0.05
  done
}

count_workers() {  # nginx's running worker processes: its master's children, by title
  local stat ppid title count=0
  for stat in /proc/[0-9]*/stat; do
    { read -r _ _ _ ppid _ < "$stat"; } 2>/dev/null || continue
    [[ $ppid == "$nginx_pid" ]] || continue
    title=$(tr '\0' ' ' 2>/dev/null < "${stat%stat}cmdline") || continue
    [[ $title == "nginx: worker process"* ]] && count=$((count + 1))
  done
  echo "$count"
}

observed_workers() {  # expected: the worker count, once all have started (at most 5 s)
  local count tries=0
  while count=$(count_workers); (( count < $1 && tries++ < 100 )); do
    sleep 0.05
  done
  echo "$count"
}

on_signal() {
  stopping=1
  if [[ -n $nginx_pid ]]; then kill -TERM "$nginx_pid" 2>/dev/null || true; else exit 143; fi
}

start_failed() {  # runtime-dir endpoint: why nginx stopped before it answered
  local code=0
  wait "$nginx_pid" || code=$?
  [[ -z $stopping ]] || exit "$code"
  if grep -q "bind() to .* failed" "$1/error.log" 2>/dev/null; then
    fail "cannot listen on $2: address already in use or not available" "$EXIT_CANNOT_BIND"
  fi
  fail "nginx stopped with code $code before it answered on $2" "$(( code ? code : 1 ))"
}

wait_for_nginx() {  # until nginx exits, through the signals forwarded to it; its code
  local code=0
  while :; do
    code=0
    wait "$nginx_pid" || code=$?
    nginx_running || return "$code"
  done
}

main() {
  local port workers bind version nginx=${HTTPLAB_NGINX:-/usr/sbin/nginx} dir
  port=$(int_setting PORT "$(manifest_value port)" 1 65535) || exit
  workers=$(int_setting WORKERS "$(default_workers)" 1 "$MAX_WORKERS") || exit
  bind=$(bind_address) || exit
  version=$(nginx_version "$nginx") || exit
  if [[ -n ${HTTPLAB_RUNTIME_DIR-} ]]; then
    dir=$HTTPLAB_RUNTIME_DIR
  else
    created_dir=$(mktemp -d "${TMPDIR:-/tmp}/httplab-nginx.XXXXXX")
    trap 'rm -rf "$created_dir"' EXIT
    dir=$created_dir
  fi
  render_config "$dir" "$workers" "$(listen_address "$bind" "$port")"
  trap on_signal TERM INT
  # -e: nginx's log until it has read the config, which would be /var/log otherwise.
  "$nginx" -e stderr -p "$dir" -c "$dir/nginx.conf" &
  nginx_pid=$!
  wait_until_answering "$(probe_host "$bind")" "$port" || start_failed "$dir" "$bind:$port"
  echo "httplab-ready framework=$FRAMEWORK version=$version transport=$TRANSPORT" \
    "workers=$workers observed_workers=$(observed_workers "$workers") bind=$bind:$port" \
    "blocking_pool=0 db_pool=0"  # no /blocking or /db endpoint, so no pool for them
  wait_for_nginx
}

main "$@"
