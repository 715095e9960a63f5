#!/usr/bin/env bash
# with_postgres.sh COMMAND…: runs COMMAND beside a PostgreSQL + PostGIS server of its own, made in a
# temporary folder (as the postgres user when run as root: initdb refuses root), listening on
# 127.0.0.1 at a free port and on a socket in that folder; stops it and removes the folder whatever
# COMMAND did. The roles and grants are those docs/catalogue.md documents:
#   quakemap_writer  owns the database `quakes` (creates the tables at the first ingest)
#   quakemap_reader  may connect and SELECT, nothing else
# COMMAND sees (passwords in PGPASSWORD-style variables, never in the URLs):
#   QUAKEMAP_TEST_POSTGRES          postgresql://quakemap_writer@127.0.0.1:PORT/quakes
#   QUAKEMAP_TEST_POSTGRES_READER   postgresql://quakemap_reader@127.0.0.1:PORT/quakes
#   QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD, QUAKEMAP_TEST_POSTGRES_READER_PASSWORD
#   QUAKEMAP_TEST_POSTGRES_ADMIN    the socket folder and port, for psql -h … -p … -U postgres (trusted)
#   QUAKEMAP_TEST_POSTGRES_STANDBY_PORT  a hot standby of it (pg_basebackup, streaming replication) at
#                                   127.0.0.1 on this port: every database, role and row, read-only
# PG_FSYNC=on keeps fsync (benchmarks); tests run without it.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "with_postgres.sh: no PostgreSQL server (Debian: apt-get install postgresql postgis)" >&2
    exit 69
fi
dir=$(mktemp -d /tmp/quakemap-pg.XXXXXX)
chmod 755 "$dir"
as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

standby_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cleanup() {
    as_postgres "$bin/pg_ctl" -D "$dir/standby" -m immediate -w stop >/dev/null 2>&1 || true
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT

as_postgres "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 70; }
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=${PG_FSYNC:-off} -c max_connections=60" \
    >/dev/null || { cat "$dir/server.log" >&2; exit 70; }

admin() { psql -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres "$@"; }
admin -d postgres <<'SQL'
CREATE ROLE quakemap_writer LOGIN PASSWORD 'writer-secret';
CREATE ROLE quakemap_reader LOGIN PASSWORD 'reader-secret';
CREATE ROLE quakemap_replicator REPLICATION LOGIN PASSWORD 'replicator-secret';
CREATE DATABASE quakes OWNER quakemap_writer;
SQL
admin -d quakes -f scripts/catalogue_database.sql

# The hot standby: a base backup of the primary that streams its WAL from then on (-R writes
# primary_conninfo and standby.signal), read-only, on its own port.
PGPASSWORD=replicator-secret as_postgres env PGPASSWORD=replicator-secret "$bin/pg_basebackup" -h 127.0.0.1 -p "$port" \
    -U quakemap_replicator -D "$dir/standby" -R -X stream -c fast >"$dir/basebackup.log" 2>&1 \
    || { cat "$dir/basebackup.log" >&2; exit 70; }
as_postgres "$bin/pg_ctl" -D "$dir/standby" -l "$dir/standby.log" -w start \
    -o "-c listen_addresses=127.0.0.1 -c port=$standby_port -c unix_socket_directories=$dir -c fsync=${PG_FSYNC:-off} -c max_connections=60 -c hot_standby=on" \
    >/dev/null || { cat "$dir/standby.log" >&2; exit 70; }

export QUAKEMAP_TEST_POSTGRES="postgresql://quakemap_writer@127.0.0.1:$port/quakes"
export QUAKEMAP_TEST_POSTGRES_READER="postgresql://quakemap_reader@127.0.0.1:$port/quakes"
export QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD=writer-secret
export QUAKEMAP_TEST_POSTGRES_READER_PASSWORD=reader-secret
export QUAKEMAP_TEST_POSTGRES_ADMIN="$dir:$port"
export QUAKEMAP_TEST_POSTGRES_STANDBY_PORT="$standby_port"
"$@"
