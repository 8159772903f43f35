#!/bin/bash
# Starts nginx as the lab's ceiling reference and, once it answers GET / with 200, prints
# the httplab-ready line the Java servers print (nginx cannot print it itself). Takes the
# Java servers' settings, by the same rules (servers/common ServerConfig.java):
#   PORT, WORKERS   default: port and workers of the server.toml beside this script
#                   ("cpus": one worker per CPU this process may use)
#   BIND_ADDRESS    default 0.0.0.0
#   PROTOCOL        h1 (default), h1-tls, h2c or h2, of the manifest's protocols; the TLS
#                   ones (h1-tls, h2) need TLS_CERT and TLS_KEY, readable PEM files
# A bad value exits 2 with one line naming the variable, as does a configuration nginx
# refuses (`nginx -t`: a certificate it cannot load); a port in use exits 1. Also:
#   HTTPLAB_NGINX        the nginx binary (default /usr/sbin/nginx)
#   HTTPLAB_RUNTIME_DIR  a writable directory for nginx's config, pid and temp files
#                        (default: a new one under TMPDIR or /tmp, removed at the end)
# SIGTERM and SIGINT go on to nginx, which stops at once; the script exits with it.
set -euo pipefail

readonly HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly MANIFEST=$HERE/server.toml
readonly FRAMEWORK=nginx TRANSPORT=epoll  # transport: the config's `use epoll`
readonly MAX_WORKERS=100000 EXIT_BAD_CONFIG=2 EXIT_CANNOT_BIND=1
readonly PROTOCOLS="h1 h1-tls h2c h2"  # ServerConfig.PROTOCOLS
readonly TLS_NONE=none TLS_OPENSSL=openssl  # StartupLine's tls= values
readonly PROBE_WAIT_S=2  # the most the ready probe waits for one answer
nginx_pid= stopping= created_dir= runtime_dir=

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

protocol_setting() {  # PROTOCOL trimmed, default h1; one of the manifest's, or exit 2
  local raw=${PROTOCOL-} value offered
  value=$(trim "$raw")
  value=${value:-h1}
  [[ " $PROTOCOLS " == *" $value "* ]] ||
    fail "PROTOCOL must be one of [${PROTOCOLS// /, }], got '$raw'" "$EXIT_BAD_CONFIG"
  offered=$(manifest_value protocols)
  [[ ",$offered," == *",$value,"* ]] ||
    fail "PROTOCOL=$value: this server speaks ${offered//,/, } only (its server.toml protocols)" \
      "$EXIT_BAD_CONFIG"
  echo "$value"
}

uses_tls() {  # protocol
  [[ $1 == h1-tls || $1 == h2 ]]
}

tls_file() {  # variable protocol: the readable file the variable names, or exit 2
  local raw=${!1-} path
  path=$(trim "$raw")
  [[ -n $path ]] ||
    fail "PROTOCOL=$2 needs $1: the PEM file the lab makes for the run" "$EXIT_BAD_CONFIG"
  [[ -f $path && -r $path ]] || fail "$1=$raw: no such readable file" "$EXIT_BAD_CONFIG"
  echo "$path"
}

tls_engine() {  # nginx protocol: openssl when nginx -V says it is built with OpenSSL
  local text
  uses_tls "$2" || { echo "$TLS_NONE"; return; }
  text=$("$1" -V 2>&1) || fail "cannot run $1 -V: $text" 1
  # BoringSSL counts as OpenSSL, as in the Java servers' netty-tcnative.
  [[ $text =~ built\ with\ (OpenSSL|BoringSSL) ]] ||
    fail "PROTOCOL=$2: $1 is built without OpenSSL (nginx -V)" "$EXIT_BAD_CONFIG"
  echo "$TLS_OPENSSL"
}

listen_parameters() {  # protocol: the listen directive's, for nginx 1.22
  case $1 in
    h1) echo "" ;;
    h1-tls) echo " ssl" ;;  # no http2 here: ALPN then offers http/1.1 only
    h2c) echo " http2" ;;   # HTTP/2 with prior knowledge
    h2) echo " ssl http2" ;;
  esac
}

nginx_string() {  # text: as an nginx string in double quotes
  local text=${1//\\/\\\\}
  echo "\"${text//\"/\\\"}\""
}

tls_directives() {  # certificate key: ssl_certificate, ssl_certificate_key and ssl_protocols, or nothing
  [[ -n $1 ]] || return 0
  echo "ssl_certificate $(nginx_string "$1");"
  echo "ssl_certificate_key $(nginx_string "$2");"
  # nginx 1.22 offers TLS 1.2 at most by default; every JVM server negotiates TLS 1.3.
  echo "ssl_protocols TLSv1.2 TLSv1.3;"
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

render_config() {  # runtime-dir workers listen certificate key
  sed -e "s|@RUNTIME_DIR@|$1|g" -e "s|@WORKERS@|$2|g" -e "s|@LISTEN@|$3|g" \
    "$HERE/nginx.conf.template" > "$1/nginx.conf"
  tls_directives "$4" "$5" > "$1/tls.conf"
}

# The ready probe: GET / must answer 200 over the protocol served. Plain bash and
# coreutils, as in the images (no curl in the local one): bash's /dev/tcp for h1 and h2c,
# openssl s_client for TLS, trusting the certificate nginx was given (TLS_CERT).

h1_request() {  # authority
  printf 'GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$1"
}

h1_status_ok() {  # fd: does the answer read from it start with a 200 status line?
  local status
  read -r -t "$PROBE_WAIT_S" status <&"$1"
  [[ $status == "HTTP/1."?" 200"* ]]
}

h2_request() {  # scheme authority: the client preface, empty SETTINGS, GET / on stream 1
  local block_length=$(( 5 + ${#2} )) scheme_index=6  # HPACK static table: 6 http, 7 https
  [[ $1 == https ]] && scheme_index=7
  printf 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00'
  # HEADERS, END_STREAM and END_HEADERS, stream 1: :method GET, :scheme, :path /, and
  # :authority as a literal of its length (under 127 bytes, one byte).
  printf "\\x00\\x00\\x$(printf %02x "$block_length")\\x01\\x05\\x00\\x00\\x00\\x01"
  printf "\\x82\\x8$scheme_index\\x84\\x01\\x$(printf %02x "${#2}")%s" "$2"
}

hex_bytes() {  # fd count: the next count bytes read from fd, as hex digits
  timeout "$PROBE_WAIT_S" head -c "$2" <&"$1" | od -An -v -tx1 | tr -d ' \n'
}

h2_status_ok() {  # fd: do the frames read from it answer stream 1 with :status 200?
  local header frames=0
  while (( frames++ < 32 )); do
    header=$(hex_bytes "$1" 9)
    (( ${#header} == 18 )) || return 1
    # Type 1 (HEADERS) on stream 1: its block starts with 0x88, HPACK's :status 200.
    if [[ ${header:6:2} == 01 && ${header:10:8} == 00000001 ]]; then
      [[ $(hex_bytes "$1" 1) == 88 ]]
      return
    fi
    hex_bytes "$1" $(( 16#${header:0:6} )) > /dev/null
  done
  return 1
}

tls_answers() {  # protocol authority certificate: 200 over TLS, ALPN h2 or http/1.1?
  local alpn=http/1.1 answered=1
  [[ $1 == h2 ]] && alpn=h2
  coproc TLS_CLIENT { exec timeout $(( 2 * PROBE_WAIT_S )) openssl s_client -quiet \
    -connect "$2" -alpn "$alpn" \
    -CAfile "$3" -partial_chain -verify_return_error 2>/dev/null; }
  # As fds 3 and 4: bash closes a coprocess's own in the pipelines that read them.
  exec 3<&"${TLS_CLIENT[0]}" 4>&"${TLS_CLIENT[1]}"
  if [[ $1 == h2 ]]; then
    h2_request https "$2" >&4 && h2_status_ok 3 && answered=0
  else
    h1_request "$2" >&4 && h1_status_ok 3 && answered=0
  fi
  kill "$TLS_CLIENT_PID" 2>/dev/null || true
  return "$answered"
}

answers() {  # protocol host port certificate: does GET / get a 200 now?
  local authority
  authority=$(listen_address "$2" "$3")  # host:port, an IPv6 address in brackets
  (
    case $1 in
      h1) exec 3<>"/dev/tcp/$2/$3"; h1_request "$authority" >&3; h1_status_ok 3 ;;
      h2c) exec 3<>"/dev/tcp/$2/$3"; h2_request http "$authority" >&3; h2_status_ok 3 ;;
      *) tls_answers "$1" "$authority" "$4" ;;
    esac
  ) 2>/dev/null
}

nginx_running() {
  kill -0 "$nginx_pid" 2>/dev/null
}

wait_until_answering() {  # protocol host port certificate: 0 once it answers, 1 if nginx stopped
  until answers "$@"; do
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

config_accepted() {  # nginx runtime-dir protocol: nginx -t passes, or exit 2 with its reason
  local output reason
  output=$("$1" -t -q -e stderr -p "$2" -c "$2/nginx.conf" 2>&1) && return
  # Its first [emerg] line without the time and process ids, else its first line.
  reason=$(sed -n -E 's/.*\[emerg\] [0-9#]+: //p' <<< "$output" | head -n 1)
  fail "PROTOCOL=$3: nginx refuses its configuration: ${reason:-${output%%$'\n'*}}" \
    "$EXIT_BAD_CONFIG"
}

make_runtime_dir() {  # sets runtime_dir: HTTPLAB_RUNTIME_DIR, or a new one removed at exit
  if [[ -n ${HTTPLAB_RUNTIME_DIR-} ]]; then
    runtime_dir=$HTTPLAB_RUNTIME_DIR
  else
    created_dir=$(mktemp -d "${TMPDIR:-/tmp}/httplab-nginx.XXXXXX")
    trap 'rm -rf "$created_dir"' EXIT
    runtime_dir=$created_dir
  fi
}

main() {
  local port workers bind protocol cert= key= tls version nginx=${HTTPLAB_NGINX:-/usr/sbin/nginx}
  port=$(int_setting PORT "$(manifest_value port)" 1 65535) || exit
  workers=$(int_setting WORKERS "$(default_workers)" 1 "$MAX_WORKERS") || exit
  bind=$(bind_address) || exit
  protocol=$(protocol_setting) || exit
  if uses_tls "$protocol"; then
    cert=$(tls_file TLS_CERT "$protocol") || exit
    key=$(tls_file TLS_KEY "$protocol") || exit
    command -v openssl > /dev/null ||
      fail "PROTOCOL=$protocol: the ready probe needs openssl (s_client)" "$EXIT_BAD_CONFIG"
  fi
  version=$(nginx_version "$nginx") || exit
  tls=$(tls_engine "$nginx" "$protocol") || exit
  make_runtime_dir
  render_config "$runtime_dir" "$workers" \
    "$(listen_address "$bind" "$port")$(listen_parameters "$protocol")" "$cert" "$key"
  config_accepted "$nginx" "$runtime_dir" "$protocol"
  trap on_signal TERM INT
  # -e: nginx's log until it has read the config, which would be /var/log otherwise.
  "$nginx" -e stderr -p "$runtime_dir" -c "$runtime_dir/nginx.conf" &
  nginx_pid=$!
  wait_until_answering "$protocol" "$(probe_host "$bind")" "$port" "$cert" ||
    start_failed "$runtime_dir" "$bind:$port"
  echo "httplab-ready framework=$FRAMEWORK version=$version transport=$TRANSPORT" \
    "workers=$workers observed_workers=$(observed_workers "$workers") bind=$bind:$port" \
    "blocking_pool=0 db_pool=0" \
    "protocol=$protocol tls=$tls"  # no /blocking or /db endpoint, so no pool for them
  wait_for_nginx
}

main "$@"
