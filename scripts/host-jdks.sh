#!/usr/bin/env bash
# The JDKs this host's Debian 12 does not package (21 and 25), from Debian 13's packages,
# never a downloaded archive: debootstrap trixie (minbase, with the JDKs) into
# DIR/trixie, then DIR/<N> for each, a JAVA_HOME whose `release` is the JDK's own and
# whose bin/java, bin/javac, bin/jar and bin/jfr run the tree's JDK through the tree's own loader
# and libraries (installing trixie's packages on a bookworm host would upgrade its libc).
# The harness finds DIR/<N> first (loadgen/httplab/running/jdks.py). `make jdks` runs it.
#   scripts/host-jdks.sh [--mirror URL] [--force] [DIR]    (DIR default: .tools/jdks)
# Does nothing when every JAVA_HOME is there (--force: made again). Needs root and
# debootstrap; about 3 minutes.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=debian.sh
source "$here/debian.sh"

suite=trixie
jdks=(21 25)
triplet=x86_64-linux-gnu  # amd64, as the servers' async-profiler agent (linux-x64)
tools=(java javac jar jfr)  # jfr: the lab reads pinned virtual threads with it (running/pinning)

mirror=$(debian_mirror)
force=0
dir=$here/../.tools/jdks
while [ $# -gt 0 ]; do
  case $1 in
    --mirror) mirror=${2:?--mirror needs a URL}; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "usage: scripts/host-jdks.sh [--mirror URL] [--force] [DIR]" >&2; exit 2 ;;
    *) dir=$1; shift ;;
  esac
done

log() { echo "host-jdks: $*" >&2; }
die() { echo "host-jdks: error: $*" >&2; exit 1; }

present() {
  local n tool
  for n in "${jdks[@]}"; do
    [ -r "$dir/$n/release" ] || return 1
    for tool in "${tools[@]}"; do [ -x "$dir/$n/bin/$tool" ] || return 1; done
  done
}
if [ "$force" = 0 ] && present; then exit 0; fi
[ "$(dpkg --print-architecture 2>/dev/null || true)" = amd64 ] || die "only amd64 hosts are supported"
[ "$(id -u)" = 0 ] && command -v debootstrap >/dev/null ||
  die "making JDKs ${jdks[*]} in $dir needs root and debootstrap (apt-get install debootstrap), or install openjdk-${jdks[-1]}-jdk-headless where your distribution has it (Debian 13, Ubuntu 24.04)"

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
root=$dir/$suite
packages=$(printf 'openjdk-%s-jdk-headless,' "${jdks[@]}")
packages=${packages%,}
partial=$dir/.$suite.partial
remove_tree "$partial"
trap 'remove_tree "$partial"' EXIT
log "debootstrap --variant=minbase --include=$packages $suite $root $mirror (about 3 min)"
start=$SECONDS
debootstrap_tree "$suite" "$packages" "$partial" "$mirror" "$dir/.debootstrap.log" || die "see above"
rm -rf "$partial"/var/cache/apt/archives/*.deb
remove_tree "$root"
mv "$partial" "$root"
log "debootstrap took $((SECONDS - start)) s"

# A JDK's files that link to /etc/... absolutely (its configuration, java.security) point
# into the tree instead; its trust store is the host's own, so it trusts what the host's
# Java trusts (a proxy's CA, say).
for n in "${jdks[@]}"; do
  home=$root/usr/lib/jvm/java-$n-openjdk-amd64
  while IFS= read -r -d '' link; do
    ln -sfn "$root$(readlink "$link")" "$link"
  done < <(find "$home/" -type l -lname '/*' -print0)
  if [ -r /etc/ssl/certs/java/cacerts ]; then
    ln -sfn /etc/ssl/certs/java/cacerts "$home/lib/security/cacerts"
  fi
done

# Each JAVA_HOME: the JDK's release file and the wrappers.
for n in "${jdks[@]}"; do
  home=$dir/$n
  rm -rf "$home"
  mkdir -p "$home/bin"
  cp "$root/usr/lib/jvm/java-$n-openjdk-amd64/release" "$home/release"
  for tool in "${tools[@]}"; do
    cat > "$home/bin/$tool" <<WRAPPER
#!/bin/sh
# JDK $n's $tool from Debian $suite in ../../$suite, through that tree's own loader and
# libraries (made by scripts/host-jdks.sh).
root=\$(cd "\$(dirname "\$(readlink -f "\$0")")/../../$suite" && pwd)
exec "\$root/usr/lib/$triplet/ld-linux-x86-64.so.2" --library-path "\$root/lib/$triplet:\$root/usr/lib/$triplet" "\$root/usr/lib/jvm/java-$n-openjdk-amd64/bin/$tool" "\$@"
WRAPPER
    chmod 0755 "$home/bin/$tool"
  done
  log "$home: $("$home/bin/java" -version 2>&1 | head -n 1)"
done
