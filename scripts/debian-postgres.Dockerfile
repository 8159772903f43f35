# The database's local base, for hosts without a registry: the debootstrapped runtime
# base plus Debian 12's postgresql-15, the same major as the official postgres:15 image
# and with the same layout (/usr/lib/postgresql/15/bin, a `postgres` user). No cluster is
# created here: database/start.sh makes a fresh one at each start.
# Built by scripts/base-images.sh, whose build context holds only this file and ca/.
ARG BASE_IMAGE=httplab/debian-jre:bookworm
FROM ${BASE_IMAGE}
RUN set -eu; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-common; \
    sed -ri 's/^#? *create_main_cluster .*/create_main_cluster = false/' \
      /etc/postgresql-common/createcluster.conf; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15; \
    apt-get clean; rm -rf /var/lib/apt/lists/*; \
    /usr/lib/postgresql/15/bin/postgres --version
