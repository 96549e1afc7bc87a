#!/usr/bin/env bash
# Start a throw-away PostgreSQL server for the tests and print its URL.
# Installs Debian's postgresql when it is missing.  The cluster lives in a
# temporary folder, listens on 127.0.0.1:${SUSHIGO_PG_PORT:-54329} with trust
# authentication, and is stopped by `.ci/postgres.sh stop`.
set -euo pipefail
PORT="${SUSHIGO_PG_PORT:-54329}"
DATA="${SUSHIGO_PG_DATA:-/tmp/sushigo-pg}"
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null
fi
BIN="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "${1:-}" = stop ]; then
    as_pg "$BIN/pg_ctl" -D "$DATA" -m fast stop >/dev/null 2>&1 || true
    exit 0
fi
as_pg "$BIN/pg_ctl" -D "$DATA" -m immediate stop >/dev/null 2>&1 || true
rm -rf "$DATA"
mkdir -p "$DATA"
[ "$(id -u)" = 0 ] && chown postgres "$DATA"
as_pg "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 >/dev/null
as_pg "$BIN/pg_ctl" -D "$DATA" -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200" \
    -l "$DATA/server.log" -w start >/dev/null
as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres sushigo_test
echo "postgresql://postgres@127.0.0.1:$PORT/sushigo_test"
