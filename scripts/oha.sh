#!/usr/bin/env bash
# Build oha (the fixed-rate load tool) with the host's cargo into ROOT/bin/oha, only when
# that file is missing or says another version. `make oha` runs it with the version of
# loadgen/httplab/loadtools/oha/command.py (OHA_VERSION), the one place it is stated.
#   scripts/oha.sh VERSION ROOT
# Takes minutes on two cores, once; run at low priority so the machine stays usable.
set -euo pipefail

version=${1:?usage: scripts/oha.sh VERSION ROOT}
root=${2:?usage: scripts/oha.sh VERSION ROOT}
binary=$root/bin/oha

die() { echo "httplab: error: $*" >&2; exit 2; }

present=$("$binary" --version 2>/dev/null | head -n 1 || true)
if [ "$present" = "oha $version" ]; then exit 0; fi
# rustup puts cargo in ~/.cargo/bin, on PATH only for shells that read ~/.profile or
# ~/.bashrc: a CI job or a cron line may not.
if ! command -v cargo >/dev/null && [ -x "$HOME/.cargo/bin/cargo" ]; then
  PATH="$HOME/.cargo/bin:$PATH"
fi
command -v cargo >/dev/null ||
  die "cargo not found, and oha $version must be built with it: install Rust 1.88+ (https://rustup.rs, or Debian 12's cargo-web from bookworm-security), then run make oha again"

echo "httplab: building oha $version into $binary${present:+ (found: $present)}; takes minutes" >&2
start=$SECONDS
# --locked: the dependency versions oha released with, not today's newest.
nice -n 10 cargo install --quiet --locked --force --version "$version" --root "$root" oha
echo "httplab: built $("$binary" --version | head -n 1) in $((SECONDS - start)) s" >&2
