# SPDX-License-Identifier: MIT
# Sourced by the tests of the PostgreSQL store: a throwaway server of
# Debian's postgresql (initdb and pg_ctl from /usr/lib/postgresql/*/bin) in a
# temporary directory, reached only through a Unix socket there; no system
# service, no TCP port. As root the server runs as nobody (PostgreSQL
# refuses root).
#
#   pg_server_start || skip "$PG_SERVER_WHY"
#   url=$(pg_newdb NAME)        # a new, empty database: its postgresql:// URL
#   pg_server_stop              # also from the caller's EXIT trap
#
# Sets PG_SERVER_DIR (data, socket and log) and PG_BIN.

PG_SERVER_DIR=""
PG_SERVER_WHY=""

pg_find_bin() {
	PG_BIN=""
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ] && PG_BIN=$d
	done
	[ -n "$PG_BIN" ]
}

# As the server's user: nobody when we are root.
pg_as() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	else
		"$@"
	fi
}

pg_server_start() {
	if ! pg_find_bin; then
		PG_SERVER_WHY="PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl; apt-get install postgresql)"
		return 1
	fi
	if [ "$(id -u)" -eq 0 ] && ! command -v setpriv >/dev/null 2>&1; then
		PG_SERVER_WHY="running as root without setpriv to start PostgreSQL as another user"
		return 1
	fi
	# Short: the socket's path must fit in sun_path.
	PG_SERVER_DIR=$(mktemp -d /tmp/pgs.XXXXXX)
	[ "$(id -u)" -ne 0 ] || chown 65534:65534 "$PG_SERVER_DIR"
	chmod 755 "$PG_SERVER_DIR"
	if ! pg_as "$PG_BIN/initdb" -D "$PG_SERVER_DIR/data" -U perfguide -A trust --locale=C -E UTF8 \
		>"$PG_SERVER_DIR/initdb.log" 2>&1; then
		PG_SERVER_WHY="initdb failed: $(tail -n 3 "$PG_SERVER_DIR/initdb.log" | tr '\n' ' ')"
		return 1
	fi
	if ! pg_as "$PG_BIN/pg_ctl" -D "$PG_SERVER_DIR/data" -l "$PG_SERVER_DIR/log" -w -t 60 \
		-o "-k $PG_SERVER_DIR -c listen_addresses='' -c max_connections=100 ${PG_SERVER_OPTS:--c fsync=off}" \
		start >/dev/null 2>&1; then
		PG_SERVER_WHY="the PostgreSQL server did not start: $(tail -n 3 "$PG_SERVER_DIR/log" 2>/dev/null | tr '\n' ' ')"
		return 1
	fi
	return 0
}

pg_newdb() {
	"$PG_BIN/createdb" -h "$PG_SERVER_DIR" -U perfguide "$1" || return 1
	echo "postgresql:///$1?host=$PG_SERVER_DIR&user=perfguide"
}

# psql on database $1, the rest its arguments.
pg_psql() {
	db=$1
	shift
	"$PG_BIN/psql" -X -q -h "$PG_SERVER_DIR" -U perfguide -d "$db" -v ON_ERROR_STOP=1 "$@"
}

pg_server_stop() {
	[ -n "$PG_SERVER_DIR" ] || return 0
	pg_as "$PG_BIN/pg_ctl" -D "$PG_SERVER_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$PG_SERVER_DIR"
	PG_SERVER_DIR=""
}
