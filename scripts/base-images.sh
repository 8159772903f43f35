#!/usr/bin/env bash
# Build the local base images named in scripts/base-images.env, for hosts where the
# official images (maven, eclipse-temurin, debian) cannot be pulled:
#   runtime images: debootstrap'd Debian with one headless JRE each (servers, one per
#                   JDK; JDK 17's also has wrk)
#   build image:    the runtime image of HTTPLAB_BUILD_JDK plus that JDK, Maven and extra
#                   CA certificates
#   wrk base:       JDK 17's runtime image plus the extra CA certificates (the wrk image,
#                   whose oha stage fetches crates from crates.io)
#   database base:  JDK 17's runtime image plus Debian 12's postgresql-15
#                   (database/Dockerfile)
# Each image is built only when missing (or with --force). An image label holds a
# hash of its recipe, so a present image built differently (other mirror, other
# CA certificates) is named, but kept: silently replacing a build image that trusts
# a proxy's CA with one that does not would break every build behind that proxy.
# Needs root and debootstrap.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/base-images.sh [--mirror URL] [--ca-dir DIR] [--force]
  --mirror URL   Debian mirror (default: $HTTPLAB_DEBIAN_MIRROR, else the first
                 URI in apt's sources, else http://deb.debian.org/debian)
  --ca-dir DIR   trust the *.crt certificates in DIR in the build image and the wrk
                 base, in the OS and the Java trust stores (default: $HTTPLAB_CA_DIR,
                 else none)
  --force        rebuild every image even when present
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=base-images.env
source "$here/base-images.env"
# shellcheck source=debian.sh
source "$here/debian.sh"

mirror=$(debian_mirror)
ca_dir=${HTTPLAB_CA_DIR:-}
force=0
while [ $# -gt 0 ]; do
  case $1 in
    --mirror) mirror=${2:?--mirror needs a URL}; shift 2 ;;
    --ca-dir) ca_dir=${2:?--ca-dir needs a directory}; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done

log() { echo "base-images: $*"; }
die() { echo "base-images: error: $*" >&2; exit 1; }

if [ -n "$ca_dir" ] && [ ! -d "$ca_dir" ]; then die "--ca-dir $ca_dir is not a directory"; fi

command -v docker >/dev/null || die "docker not found"
docker info >/dev/null 2>&1 || die "no Docker engine answers (start dockerd, see .ci/docker-setup.sh)"

# True when IMAGE must be built: missing, or --force. Says why an image is reused.
needs_build() {
  local image=$1 recipe=$2 present
  present=$(docker image inspect -f '{{index .Config.Labels "httplab.recipe"}}' "$image" 2>/dev/null) || return 0
  [ "$force" = 1 ] && return 0
  if [ "$present" = "$recipe" ]; then
    log "$image present, reusing"
  else
    log "$image present, reusing, but built from another recipe ($present, now $recipe): --force rebuilds"
  fi
  return 1
}

work=$(mktemp -d /var/tmp/httplab-base.XXXXXX)
trap 'remove_tree "$work"' EXIT

# --- runtime images: debootstrap + import, one per JDK ----------------------------
# JDK N's image: Debian's openjdk-N-jre-headless from the suite its tag names; JDK 17's
# also carries wrk, for the wrk base built on it.
runtime_packages() {
  local jdk=$1
  echo "openjdk-$jdk-jre-headless$([ "$jdk" = 17 ] && echo ,wrk)"
}

build_runtime() {
  local jdk=$1 image suite packages recipe root start
  image=$(runtime_image "$jdk")
  suite=${image##*:}
  packages=$(runtime_packages "$jdk")
  recipe=$(printf '%s\n' "$suite" "$mirror" "$packages" "user 10001" | sha256sum | cut -c1-16)
  needs_build "$image" "$recipe" || return 0
  root="$work/rootfs-$jdk"
  log "debootstrap --variant=minbase --include=$packages $suite $root $mirror"
  start=$SECONDS
  debootstrap_tree "$suite" "$packages" "$root" "$mirror" "$work/debootstrap-$jdk.log" || die "see above"
  log "debootstrap took $((SECONDS - start)) s"
  # The non-root user the images run as (USER 10001 in the Dockerfiles); a passwd
  # entry gives it a name and a home, which the JVM reads as user.home.
  echo 'httplab:x:10001:10001:httplab:/home/httplab:/usr/sbin/nologin' >> "$root/etc/passwd"
  echo 'httplab:x:10001:' >> "$root/etc/group"
  install -d -o 10001 -g 10001 -m 0755 "$root/home/httplab"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log
  log "docker import -> $image"
  tar --numeric-owner --exclude='./proc/*' --exclude='./sys/*' --exclude='./dev/*' -C "$root" -c . |
    docker import \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'ENV LANG=C.UTF-8' \
      --change 'CMD ["/bin/bash"]' \
      --change "LABEL httplab.recipe=$recipe" \
      --message "debootstrap $suite $packages from $mirror" \
      - "$image" >/dev/null
  remove_tree "$root"
  log "built $image in $((SECONDS - start)) s"
}

runtime_image() { local name="HTTPLAB_RUNTIME_IMAGE_$1"; echo "${!name}"; }
runtime_jdks=$(compgen -v HTTPLAB_RUNTIME_IMAGE_ | sed 's/^HTTPLAB_RUNTIME_IMAGE_//' | sort -n)
# Side by side: each is mostly downloads and unpacking, into its own tree.
runtime_builds=()
for jdk in $runtime_jdks; do build_runtime "$jdk" & runtime_builds+=("$!"); done
for pid in "${runtime_builds[@]}"; do wait "$pid" || die "a runtime image failed, see above"; done

# --- images on a runtime one, with the CA certificates --------------------------------
certificates="$work/ca"
mkdir -p "$certificates"
if [ -n "$ca_dir" ]; then
  # Only the certificate files themselves go into the build contexts.
  while IFS= read -r -d '' crt; do
    cp -L "$crt" "$certificates/$(basename "$crt")"
  done < <(find -L "$ca_dir" -maxdepth 1 -type f -name '*.crt' -print0)
  n=$(find "$certificates" -type f | wc -l)
  [ "$n" -gt 0 ] || die "no *.crt file in $ca_dir"
  log "trusting $n certificate(s) from $ca_dir: $(cd "$certificates" && echo *)"
fi

# Builds IMAGE from scripts/RECIPE on JDK's runtime image, with ca/ in its context.
build_on_runtime() {
  local image=$1 recipe_file=$2 jdk=$3 base ctx recipe start
  base=$(runtime_image "$jdk")
  ctx="$work/${recipe_file%.Dockerfile}-context"
  mkdir -p "$ctx"
  cp "$here/$recipe_file" "$ctx/Dockerfile"
  cp -r "$certificates" "$ctx/ca"
  recipe=$( (docker image inspect -f '{{.Id}}' "$base"; cd "$ctx" && find . -type f | sort | xargs sha256sum) |
            sha256sum | cut -c1-16)
  needs_build "$image" "$recipe" || return 0
  log "docker build -> $image"
  start=$SECONDS
  docker build --build-arg "BASE_IMAGE=$base" --build-arg "JDK=$jdk" \
    --label "httplab.recipe=$recipe" -t "$image" "$ctx" \
    > "$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; die "docker build of $image failed"; }
  grep -o 'trusted by Java: /.*\.crt$' "$work/build.log" | sed 's/^/base-images: /' || true
  log "built $image in $((SECONDS - start)) s"
}
build_on_runtime "$HTTPLAB_BUILD_IMAGE" debian-maven.Dockerfile "$HTTPLAB_BUILD_JDK"
build_on_runtime "$HTTPLAB_WRK_BASE_IMAGE" debian-wrk.Dockerfile 17
build_on_runtime "$HTTPLAB_DATABASE_IMAGE" debian-postgres.Dockerfile 17

for img in $(for jdk in $runtime_jdks; do runtime_image "$jdk"; done) "$HTTPLAB_BUILD_IMAGE" \
           "$HTTPLAB_WRK_BASE_IMAGE" "$HTTPLAB_DATABASE_IMAGE"; do
  log "$img: $(( $(docker image inspect -f '{{.Size}}' "$img") / 1000000 )) MB"
done
