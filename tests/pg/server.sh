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
# One server for many tests: tests/run starts it (pg_share) and exports its
# directory as KIFU_PG_SHARED; a test then calls pg_attach NAME instead of
# pg_start and gets databases of its own on it (NAME_kifu, NAME_other, ...:
# pg_dbname, pg_uri, pg_psql and pg_createdb take the short names), dropped
# when it exits. Sourced by a test (tests/cli/lib/test-lib.sh), pg_start
# leaves the traps to the test's exit hooks. The waits for the server to
# start or stop are bounded by PG_WAIT seconds (300: a loaded machine is
# slow, but pg_ctl -w returns as soon as the server is up).
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

# pg_missing: when no server can be started, prints why and succeeds (0);
# fails (1), silently, when one can.
pg_missing() {
	_b=$(pg_bindir)
	if [ -n "$_b" ] && [ -x "$_b/initdb" ] && [ -x "$_b/pg_ctl" ] && [ -x "$_b/psql" ]; then
		if [ "$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; then
			return 1
		fi
		echo "running as root and there is no user 'postgres' to run the server as"
	else
		echo "PostgreSQL server programs (initdb, pg_ctl, psql) not found${PG_BINDIR:+ in '$PG_BINDIR'}"
	fi
}

# pg_require NAME (for scripts outside the tests, which have test_require
# postgresql): 0 when a server can be started; otherwise says so and returns
# 1 under CI=true or KIFU_TEST_DEPS=required (a declared dependency: Debian
# postgresql-15, from the Makefile's DEB_TEST), else prints SKIPPED and
# exits 0.
pg_require() {
	_why=$(pg_missing) || return 0
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

# The name of database NAME: on a shared server (pg_attach), the test's
# prefix keeps the databases of tests running side by side apart.
pg_dbname() {
	case $1 in
	postgres | template0 | template1) echo "$1" ;;
	*) echo "${PG_DB_PREFIX:-}$1" ;;
	esac
}

pg_uri() {
	echo "postgresql://kifu@/$(pg_dbname "$1")?host=$PG_DIR"
}

pg_psql() {
	_db=$1
	shift
	"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$(pg_uri "$_db")" "$@"
}

pg_createdb() {
	pg_psql postgres -c "CREATE DATABASE \"$(pg_dbname "$1")\" ${2:-}" >/dev/null || return 1
	pg_uri "$1"
}

pg_resume() {
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t "${PG_WAIT:-300}" start >/dev/null ||
		{ echo "pg_start: the server did not start:" >&2; tail -20 "$PG_DIR/log" >&2; return 1; }
}

pg_halt() {
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t "${PG_WAIT:-300}" stop >/dev/null 2>&1
}

pg_stop() {
	[ -n "${PG_DIR:-}" ] || return 0
	if [ -f "$PG_DIR/data/postmaster.pid" ]; then
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w -t "${PG_WAIT:-300}" stop >/dev/null 2>&1
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
	if command -v test_at_exit >/dev/null 2>&1; then
		# A test (tests/cli/lib/test-lib.sh): its exit hooks stop the server.
		test_at_exit 'pg_stop; eval "${PG_ON_EXIT:-}"'
	else
		trap 'pg_stop; eval "${PG_ON_EXIT:-}"' EXIT
		# Also when the output pipe closes (`sh test.sh | head`) or the terminal goes.
		trap 'exit 129' HUP
		trap 'exit 130' INT
		trap 'exit 141' PIPE
		trap 'exit 143' TERM
	fi
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
max_connections = 100
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

# pg_share: pg_start, for a server that several tests use one after another
# or side by side (tests/run starts one): exports KIFU_PG_SHARED, its
# directory, which pg_attach reads.
pg_share() {
	pg_start || return 1
	KIFU_PG_SHARED=$PG_DIR
	export KIFU_PG_SHARED
}

# pg_attach NAME: uses the server of KIFU_PG_SHARED instead of starting one:
# the databases of the caller are named NAME_... (pg_dbname), those left by
# an earlier run of NAME are dropped, and the caller's exit drops them again
# (with test_at_exit); KIFU_PG_URI is the empty database `kifu`. The server
# stays up: a test that stops it (pg_halt) or changes roles must pg_start
# its own. Fails (1) when there is no shared server.
pg_attach() {
	[ -n "${KIFU_PG_SHARED:-}" ] && [ -S "$KIFU_PG_SHARED/.s.PGSQL.5432" ] || return 1
	PG_BIN=$(pg_bindir)
	PG_DIR=$KIFU_PG_SHARED
	PG_DB_PREFIX=$(echo "$1" | tr -c 'a-z0-9\n' _)_
	unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGPASSWORD PGSERVICE PGSERVICEFILE PGOPTIONS \
		PGSSLMODE PGCONNECT_TIMEOUT PGTARGETSESSIONATTRS PGAPPNAME
	export PGPASSFILE="$PG_DIR/pgpass"
	pg_dropdbs || return 1
	command -v test_at_exit >/dev/null 2>&1 && test_at_exit pg_dropdbs
	pg_createdb kifu >/dev/null || return 1
	KIFU_PG_URI=$(pg_uri kifu)
	export KIFU_PG_URI
}

# Drops the databases of this caller (those named with its prefix).
pg_dropdbs() {
	[ -n "${PG_DB_PREFIX:-}" ] || return 0
	pg_psql postgres -c "SELECT datname FROM pg_database WHERE starts_with(datname, '$PG_DB_PREFIX')" |
		while read -r _d; do
			pg_psql postgres -c "DROP DATABASE IF EXISTS \"$_d\" WITH (FORCE)" || return 1
		done
}
