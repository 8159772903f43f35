# Helpers shared by the scripts that debootstrap Debian trees (base-images.sh,
# host-jdks.sh); sourced, not run.

# The Debian mirror: $HTTPLAB_DEBIAN_MIRROR, else the first URI in apt's sources, else
# deb.debian.org.
debian_mirror() {
  local uri=${HTTPLAB_DEBIAN_MIRROR:-}
  if [ -z "$uri" ] && [ -r /etc/apt/sources.list.d/debian.sources ]; then
    uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
  fi
  if [ -z "$uri" ] && [ -r /etc/apt/sources.list ]; then
    uri=$(awk '$1 == "deb" && $2 !~ /^\[/ {print $2; exit}' /etc/apt/sources.list)
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

# A failed debootstrap can leave /proc etc. mounted in its tree: unmount everything under
# DIR before deleting it, so rm cannot reach through into the host.
remove_tree() {
  local dir=$1 m
  [ -e "$dir" ] || return 0
  for m in $(awk -v d="$(readlink -f "$dir")/" 'index($2, d) == 1 {print $2}' /proc/mounts | sort -r); do
    umount -l "$m" || true
  done
  rm -rf --one-file-system "$dir"
}

# debootstrap --variant=minbase of SUITE with PACKAGES (comma-separated) into ROOT, its log
# in LOG; the log's tail and a non-zero status when it fails.
debootstrap_tree() {
  local suite=$1 packages=$2 root=$3 mirror=$4 log=$5
  command -v debootstrap >/dev/null || { echo "debootstrap not found (apt-get install debootstrap)" >&2; return 1; }
  [ "$(id -u)" = 0 ] || { echo "debootstrap needs root" >&2; return 1; }
  debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" > "$log" 2>&1 ||
    { tail -n 30 "$log" >&2; echo "debootstrap of $suite failed" >&2; return 1; }
}
