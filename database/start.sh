#!/usr/bin/env bash
# The lab's PostgreSQL, the same way in its image (the entrypoint) and with BACKEND=local:
#   start.sh          a fresh cluster in HTTPLAB_DB_DATA (which must not exist yet or be
#                     empty), seeded with seed.sql, then postgres in the foreground (exec:
#                     one signal stops it, SIGINT fast)
#   start.sh ready    exit 0 once that postgres answers (the healthcheck); during the
#                     seeding it does not, as the seeding server has its socket elsewhere
# Settings, from the environment (empty means the default):
#   DB_HOST DB_PORT           the one address and port it listens on (127.0.0.1, 15432)
#   DB_NAME DB_USER DB_PASSWORD  the database and its owner (httplab each), a superuser,
#                             so the harness may reset pg_stat_statements
#   HTTPLAB_DB_DATA           the data directory, also the unix socket's (required)
#   HTTPLAB_DB_BIN            initdb, postgres, psql (/usr/lib/postgresql/15/bin)
# The defaults are the harness's (loadgen/httplab/running/database/base.py). Progress on
# stderr, as postgres's own log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
host=${DB_HOST:-127.0.0.1}
port=${DB_PORT:-15432}
name=${DB_NAME:-httplab}
user=${DB_USER:-httplab}
password=${DB_PASSWORD:-httplab}
data=${HTTPLAB_DB_DATA:?HTTPLAB_DB_DATA must name the data directory}
bin=${HTTPLAB_DB_BIN:-/usr/lib/postgresql/15/bin}

log() { echo "httplab-db: $*" >&2; }
die() { echo "httplab-db: error: $*" >&2; exit 1; }

if [ "${1:-}" = ready ]; then
  exec "$bin/pg_isready" -q -h "$data" -p "$port" -U "$user" -d "$name"
fi

[ -x "$bin/initdb" ] || die "no initdb in $bin: install Debian's postgresql-15"
[ "$(id -u)" != 0 ] || die "PostgreSQL refuses to run as root: start this as the postgres user"
if [ -d "$data" ] && [ -n "$(ls -A "$data")" ]; then die "$data is not empty: a fresh cluster needs an empty directory"; fi

# md5, not PostgreSQL 15's default scram-sha-256: Vert.x's PostgreSQL client needs an
# optional dependency for SCRAM; TechEmpower's own database uses md5 too.
log "initdb $data (user $user; socket trusted, TCP with md5)"
"$bin/initdb" -D "$data" -U "$user" --no-locale -E UTF8 --auth-local=trust --auth-host=md5 >&2

cat >> "$data/postgresql.conf" <<CONF
# httplab (database/start.sh)
listen_addresses = '$host'
port = $port
unix_socket_directories = '$data'
shared_preload_libraries = 'pg_stat_statements'
password_encryption = md5
logging_collector = off
log_destination = 'stderr'
CONF

# Seeded by a server on a socket of its own and no TCP address, so that neither a server
# under test nor the `ready` check reaches the database before the world table is whole.
seeding=$(mktemp -d "$data/seeding.XXXXXX")
log "seeding $name from $here/seed.sql"
"$bin/postgres" -D "$data" -c listen_addresses= -c unix_socket_directories="$seeding" >&2 &
seeder=$!
for _ in $(seq 100); do
  "$bin/pg_isready" -q -h "$seeding" -p "$port" -U "$user" -d postgres && break
  kill -0 "$seeder" 2>/dev/null || die "the seeding server exited (its log is above)"
  sleep 0.1
done
sql() { "$bin/psql" -v ON_ERROR_STOP=1 -q -X -h "$seeding" -p "$port" -U "$user" "$@" >&2; }
sql -d postgres -c "CREATE DATABASE \"$name\"" \
  -c "SET password_encryption = 'md5'" -c "ALTER USER \"$user\" PASSWORD '$password'"
sql -d "$name" -f "$here/seed.sql"
kill -INT "$seeder"
wait "$seeder" || die "the seeding server did not stop cleanly"
rmdir "$seeding"

log "postgres on $host:$port, socket in $data"
exec "$bin/postgres" -D "$data"
