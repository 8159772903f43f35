#!/usr/bin/env bash
# Reads scripts/host-packages.txt, the one list of the host's Debian packages.
#   scripts/host-packages.sh missing GROUP...  the packages of those groups whose probe
#                                              fails, on one line (empty when none)
#   scripts/host-packages.sh check GROUP...    exits 2 with one line naming what to
#                                              install when any is missing; silent otherwise
#   scripts/host-packages.sh list GROUP...     every package of those groups, on one line
# HTTPLAB_HOST_PACKAGES names another list (the tests use it); PYTHON the interpreter
# that py: probes ask (default python3).
set -euo pipefail
list=${HTTPLAB_HOST_PACKAGES:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/host-packages.txt}

usage() { sed -n "3,9p" "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }

present() {
  case $1 in
    py:*) "${PYTHON:-python3}" -c "import ${1#py:}" >/dev/null 2>&1 ;;
    /*) [ -e "$1" ] ;;
    *) command -v "$1" >/dev/null ;;
  esac
}

# The lines of the list whose group is one of "$@", as "PACKAGE PROBE".
packages_of() {
  local package group probe wanted
  while read -r package group probe; do
    case $package in ''|'#'*) continue ;; esac
    for wanted in "$@"; do
      if [ "$group" = "$wanted" ]; then echo "$package $probe"; fi
    done
  done < "$list"
}

[ $# -ge 2 ] || usage
command=$1; shift
case $command in
  list) packages_of "$@" | cut -d' ' -f1 | paste -sd' ' ;;
  missing|check)
    missing=()
    while read -r package probe; do
      present "$probe" || missing+=("$package")
    done < <(packages_of "$@")
    if [ "$command" = missing ]; then
      echo "${missing[*]}"
    elif [ ${#missing[@]} -gt 0 ]; then
      echo "httplab: error: missing host packages (group $*): ${missing[*]}; install them" \
           "(Debian, as root): apt-get install ${missing[*]}" >&2
      exit 2
    fi ;;
  *) usage ;;
esac
