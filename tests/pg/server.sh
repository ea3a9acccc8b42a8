# A throwaway PostgreSQL server for tests and benchmarks; source it (sh).
#
# pg_start makes a temporary directory PG_DIR, runs initdb into PG_DIR/data
# as an unprivileged user (the current one, or `postgres` when run as root:
# the Debian postgresql-15 package creates it, and the server refuses to run
# as root), and starts the server listening only on a Unix socket in PG_DIR:
# listen_addresses is empty, so there is no TCP port, and no system cluster
# or system configuration is read or touched. It exports KIFU_PG_URI, the
# URI of an empty database `kifu` for the superuser role `kifu`, and installs
# traps so that the server is stopped and PG_DIR removed when the script
# exits, also on failure, Ctrl-C, SIGTERM, SIGHUP or SIGPIPE. The server is tuned for tests:
# fsync, synchronous_commit and full_page_writes are off, which is safe
# against a killed client or server process but not against a power cut.
#
#   . tests/pg/server.sh
#   pg_require pg-foo.sh || exit 1  # no PostgreSQL: exit 1 (CI, make test), or SKIPPED exit 0
#   pg_start || exit 1
#   kifu-import --db "$KIFU_PG_URI" ...
#   uri=$(pg_createdb other)        # another empty database; prints its URI
#   uri=$(pg_createdb icu "$PG_ICU") # one whose text sorts as in English, not byte order
#   pg_psql kifu -c 'SELECT ...'    # psql as the superuser (-X -q -A -t)
#   pg_halt; pg_resume              # stop (fast) / start the same server again
#   pg_stop                         # optional: the EXIT trap does it
#
# PG_WORK is a scratch directory inside PG_DIR for the caller's files, removed
# with it. Callers with their own clean-up set PG_ON_EXIT to a command run by
# the trap after the server is gone. The role `kifu_auth` is the one role
# that must give a password (scram-sha-256 on the socket; every other role is
# trusted): create it with a password to test authentication. PG_BINDIR
# overrides where initdb, pg_ctl and psql are found (default: PostgreSQL 15 of
# the Debian packages, else the newest one installed, else PATH); pg_require
# uses it so that a test can be shown to fail when the server is missing.
# PG_CONF adds lines to postgresql.conf (e.g. shared_buffers for benchmarks).

pg_bindir() {
	if [ -n "${PG_BINDIR:-}" ]; then
		echo "$PG_BINDIR"
		return
	fi
	for d in /usr/lib/postgresql/15/bin $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -rn); do
		[ -x "$d/initdb" ] && { echo "$d"; return; }
	done
	d=$(command -v initdb 2>/dev/null) && dirname "$d"
}

# pg_require NAME: 0 when a server can be started; otherwise says so and
# returns 1 under CI=true or KIFU_TEST_DEPS=required (a declared dependency:
# Debian postgresql-15, from the Makefile's DEB_TEST), else prints SKIPPED and
# exits 0.
pg_require() {
	_b=$(pg_bindir)
	if [ -n "$_b" ] && [ -x "$_b/initdb" ] && [ -x "$_b/pg_ctl" ] && [ -x "$_b/psql" ]; then
		if [ "$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; then
			return 0
		fi
		_why="running as root and there is no user 'postgres' to run the server as"
	else
		_why="PostgreSQL server programs (initdb, pg_ctl, psql) not found${PG_BINDIR:+ in '$PG_BINDIR'}"
	fi
	if [ "${CI:-}" = true ] || [ "${KIFU_TEST_DEPS:-}" = required ]; then
		echo "$1: FAIL: $_why (Debian: postgresql-15), a declared test dependency" >&2
		return 1
	fi
	echo "$1: SKIPPED: $_why (Debian package: postgresql-15)"
	exit 0
}

# Runs a command as the server's user, in PG_DIR (the server's user cannot
# read root's working directory).
pg_as() {
	if [ "$(id -u)" = 0 ]; then
		(cd "$PG_DIR" && setpriv --reuid=postgres --regid=postgres --init-groups -- "$@")
	else
		(cd "$PG_DIR" && "$@")
	fi
}

pg_uri() {
	echo "postgresql://kifu@/$1?host=$PG_DIR"
}

pg_psql() {
	_db=$1
	shift
	"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$(pg_uri "$_db")" "$@"
}

pg_createdb() {
	pg_psql postgres -c "CREATE DATABASE \"$1\" ${2:-}" >/dev/null || return 1
	pg_uri "$1"
}

pg_resume() {
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 60 start >/dev/null ||
		{ echo "pg_start: the server did not start:" >&2; tail -20 "$PG_DIR/log" >&2; return 1; }
}

pg_halt() {
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop >/dev/null 2>&1
}

pg_stop() {
	[ -n "${PG_DIR:-}" ] || return 0
	if [ -f "$PG_DIR/data/postmaster.pid" ]; then
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w -t 60 stop >/dev/null 2>&1
	fi
	rm -rf "$PG_DIR"
	PG_DIR=
}

# CREATE DATABASE options for a database whose default collation is ICU's
# English one, as on many real servers: text no longer sorts by bytes there.
PG_ICU="TEMPLATE template0 ENCODING UTF8 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"

pg_start() {
	PG_BIN=$(pg_bindir)
	# Short: a socket path is limited to 107 bytes.
	PG_DIR=$(mktemp -d /tmp/kifu-pg.XXXXXX) || return 1
	trap 'pg_stop; eval "${PG_ON_EXIT:-}"' EXIT
	# Also when the output pipe closes (`sh test.sh | head`) or the terminal goes.
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 141' PIPE
	trap 'exit 143' TERM
	PG_WORK=$PG_DIR/work
	mkdir "$PG_WORK" "$PG_DIR/data"
	chmod 700 "$PG_DIR/data"
	[ "$(id -u)" != 0 ] || chown postgres: "$PG_DIR" "$PG_DIR/data" || return 1
	chmod 755 "$PG_DIR"
	# The client's environment must not point it elsewhere.
	unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGPASSWORD PGSERVICE PGSERVICEFILE PGOPTIONS \
		PGSSLMODE PGCONNECT_TIMEOUT PGTARGETSESSIONATTRS PGAPPNAME
	export PGPASSFILE="$PG_DIR/pgpass"
	pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U kifu -A trust -E UTF8 --locale=C -N >"$PG_DIR/initdb.log" 2>&1 ||
		{ echo "pg_start: initdb failed:" >&2; tail -20 "$PG_DIR/initdb.log" >&2; return 1; }
	cat >>"$PG_DIR/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$PG_DIR'
unix_socket_permissions = 0777
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 64MB
max_connections = 50
dynamic_shared_memory_type = mmap
log_min_messages = warning
log_min_error_statement = panic
${PG_CONF:-}
EOF
	cat >"$PG_DIR/data/pg_hba.conf" <<EOF
local all kifu_auth scram-sha-256
local all all trust
EOF
	pg_resume || return 1
	pg_psql postgres -c 'CREATE DATABASE kifu' >/dev/null || return 1
	KIFU_PG_URI=$(pg_uri kifu)
	export KIFU_PG_URI
}
