#!/usr/bin/env bash
# Make this machine able to run the lab in containers: Docker Engine (started when
# none answers), Compose v1 and v2, debootstrap, and, where no registry can be
# reached, the local base images of scripts/base-images.sh.
#   bash .ci/docker-setup.sh     set up; silent when everything is in place
#   . .ci/docker-setup.sh        the same, and exports BUILD_IMAGE, WRK_BASE_IMAGE,
#                                NGINX_IMAGE and DATABASE_IMAGE when the local base images
#                                are to be used (not RUNTIME_IMAGE: there is one per JDK,
#                                HTTPLAB_RUNTIME_IMAGE_<N>, which the harness picks itself)
# Idempotent. Progress on stderr only when something is installed or started.

httplab_docker_setup() (
  set -euo pipefail
  repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  compose_version=v2.29.7
  dockerd_log=${HTTPLAB_DOCKERD_LOG:-/var/log/httplab-dockerd.log}
  ca_dir=${HTTPLAB_CA_DIR:-/usr/local/share/ca-certificates}
  # The first is pulled to tell whether a registry answers.
  official_images=(debian:bookworm-slim maven:3.9-eclipse-temurin-25 eclipse-temurin:17-jre
                   eclipse-temurin:21-jre eclipse-temurin:25-jre nginx:1.22.1 postgres:15-bookworm)

  say() { echo "docker-setup: $*" >&2; }
  die() { echo "docker-setup: error: $*" >&2; exit 1; }

  # Compose v2 from source, where no binary can be fetched (Debian 12 packages only v1).
  build_compose() {
    local go plugins gobin start=$SECONDS
    go=$(command -v go || echo /usr/local/go/bin/go)
    [ -x "$go" ] || die "docker compose (v2) is missing and there is no Go toolchain to build it"
    plugins=${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins
    say "building Compose $compose_version from the Go module proxy (takes minutes) into $plugins"
    gobin=$(mktemp -d)
    GOBIN=$gobin "$go" install \
      -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$compose_version" \
      "github.com/docker/compose/v2/cmd@$compose_version" || die "go install of Compose failed"
    install -D -m 0755 "$gobin/cmd" "$plugins/docker-compose"
    rm -rf "$gobin"
    say "built Compose $compose_version in $((SECONDS - start)) s"
  }

  # The `docker` group of scripts/host-packages.txt: Engine, Compose v1, debootstrap.
  read -r -a missing <<< "$("$repo/scripts/host-packages.sh" missing docker)"
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "need root to install ${missing[*]}"
    say "apt-get install ${missing[*]}"
    apt_log=$(mktemp)
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; } \
      > "$apt_log" 2>&1 || { tail -n 20 "$apt_log" >&2; die "apt-get install ${missing[*]} failed"; }
    rm -f "$apt_log"
  fi

  # Compose v2 needs neither the engine nor the base images: built beside them.
  compose_pid=
  if ! docker compose version >/dev/null 2>&1; then
    compose_log=$(mktemp)
    build_compose > "$compose_log" 2>&1 &
    compose_pid=$!
  fi
  await_compose() {
    [ -n "$compose_pid" ] || return 0
    wait "$compose_pid" || { cat "$compose_log" >&2; die "building Compose $compose_version failed"; }
    cat "$compose_log" >&2
    rm -f "$compose_log"
    docker compose version >/dev/null || die "docker compose still fails after install"
  }

  if ! docker info >/dev/null 2>&1; then
    # A dockerd that is still starting must not get a twin.
    if ! pgrep -x dockerd >/dev/null; then
      [ "$(id -u)" = 0 ] || die "no Docker engine answers, and starting dockerd needs root"
      say "starting dockerd (log: $dockerd_log)"
      setsid dockerd > "$dockerd_log" 2>&1 < /dev/null &
    fi
    for _ in $(seq 60); do
      docker info >/dev/null 2>&1 && break
      sleep 1
    done
    docker info >/dev/null 2>&1 || { tail -n 20 "$dockerd_log" >&2 || true; die "Docker engine did not answer within 60 s"; }
  fi

  # Official base images present, or a registry to pull them from: nothing to do.
  if docker image inspect "${official_images[@]}" >/dev/null 2>&1 ||
     timeout 60 docker pull -q "${official_images[0]}" >/dev/null 2>&1; then
    await_compose
    echo official
    exit 0
  fi
  # shellcheck source=../scripts/base-images.env
  source "$repo/scripts/base-images.env"
  runtime_images=()
  for name in $(compgen -v HTTPLAB_RUNTIME_IMAGE_); do runtime_images+=("${!name}"); done
  if ! docker image inspect "${runtime_images[@]}" "$HTTPLAB_BUILD_IMAGE" \
       "$HTTPLAB_WRK_BASE_IMAGE" "$HTTPLAB_DATABASE_IMAGE" >/dev/null 2>&1; then
    say "no registry: building local base images (about 4 min)"
  fi
  ca_args=()
  if compgen -G "$ca_dir/*.crt" >/dev/null; then ca_args=(--ca-dir "$ca_dir"); fi
  base_log=$(mktemp)
  "$repo/scripts/base-images.sh" "${ca_args[@]}" > "$base_log" 2>&1 ||
    { cat "$base_log" >&2; die "scripts/base-images.sh failed"; }
  grep -q ' built ' "$base_log" && grep -E ' built |MB$' "$base_log" >&2
  rm -f "$base_log"
  await_compose
  echo local
)

if httplab_docker_base=$(httplab_docker_setup); then
  if [ "$httplab_docker_base" = local ]; then
    # shellcheck source=../scripts/base-images.env
    . "$(dirname "${BASH_SOURCE[0]}")/../scripts/base-images.env"
    export BUILD_IMAGE=$HTTPLAB_BUILD_IMAGE WRK_BASE_IMAGE=$HTTPLAB_WRK_BASE_IMAGE \
      NGINX_IMAGE=$HTTPLAB_NGINX_IMAGE DATABASE_IMAGE=$HTTPLAB_DATABASE_IMAGE
  fi
  unset httplab_docker_base
else
  # `return` when sourced, `exit` when run.
  return 1 2>/dev/null || exit 1
fi
