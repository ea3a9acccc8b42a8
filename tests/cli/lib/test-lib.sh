# The start of every tool test (tests/cli/*.sh), as git's t/test-lib.sh is
# of git's: source it from the repo root, first thing after `set -u`:
#
#   . tests/cli/lib/test-lib.sh
#
# It sets:
#   test_name   the script's file name, for messages ("stats.sh")
#   bin         the tools' directory: $KIFU_BIN (default bin), made absolute
#   tmp         a scratch directory, removed when the script exits, also on
#               failure, Ctrl-C, SIGTERM, SIGHUP or SIGPIPE
#   checks      the number of checks run so far (check counts them)
# and defines:
#   fail MESSAGE...          prints "NAME: FAIL: MESSAGE" and marks the test failed
#   check DESC COMMAND...    runs COMMAND; when it fails, fail DESC
#   test_cmp EXPECTED ACTUAL succeeds when the files are equal, else shows
#                            their diff (diff -u, at most 40 lines) and fails
#   test_require WHAT...     prerequisites (see test_missing for the rule):
#                            chromium, python3-yaml, nodejs, node-js-yaml,
#                            postgresql, or any other name: a program on PATH
#   test_missing WHY PACKAGE the one skip rule: a declared test dependency
#                            (the Makefile's DEB_TEST) that is missing fails
#                            the test under CI (CI=true) and in `make test`
#                            (KIFU_TEST_DEPS=required); run by hand, the test
#                            prints "NAME: SKIPPED: WHY" and exits 77, which
#                            tests/run counts as skipped
#   test_at_exit COMMAND     runs COMMAND (eval) when the script exits, before
#                            $tmp is removed (stop a server, kill a helper)
#   test_wait_for SECONDS COMMAND...  runs COMMAND every 0.1 s until it
#                            succeeds (0) or SECONDS have passed (1): wait for
#                            a condition, never for a fixed time
#   test_done [DETAIL]       the closing line, "NAME: ok (DETAIL)" or
#                            "NAME: FAIL", and the exit code (0 or 1)
#
# A script that must not run beside others (it measures time, or uses a
# whole server) says so in a line "# tests/run: alone"; tests/run reads it.

test_name=$(basename "$0")
bin=${KIFU_BIN:-bin}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
checks=0
test_status=0
test_exit_hooks=""

fail() {
	echo "$test_name: FAIL: $*" >&2
	test_status=1
}

check() { # description, then a command that must succeed
	_test_desc=$1
	shift
	checks=$((checks + 1))
	"$@" || fail "$_test_desc"
}

test_cmp() { # EXPECTED ACTUAL
	if ! cmp -s "$1" "$2"; then
		diff -u "$1" "$2" | head -40 >&2
		return 1
	fi
}

test_at_exit() {
	test_exit_hooks="$test_exit_hooks
$1"
}

test_cleanup_() {
	eval "$test_exit_hooks"
	test_exit_hooks=""
	if [ -n "${tmp:-}" ] && [ -d "$tmp" ]; then
		chmod -R u+w "$tmp" 2>/dev/null
		rm -rf "$tmp"
	fi
}

test_missing() { # WHY PACKAGE
	if [ "${CI:-}" = true ] || [ "${KIFU_TEST_DEPS:-}" = required ]; then
		echo "$test_name: FAIL: $1 (Debian: $2), a declared test dependency" >&2
		exit 1
	fi
	echo "$test_name: SKIPPED: $1 (Debian package: $2)"
	exit 77
}

# The Debian package of a program the tests need.
test_package_() {
	case $1 in
	xmllint) echo libxml2-utils ;;
	7z) echo p7zip-full ;;
	xz) echo xz-utils ;;
	groff) echo groff-base ;;
	cc) echo gcc ;;
	nm) echo binutils ;;
	*) echo "$1" ;;
	esac
}

test_require() {
	for _test_what in "$@"; do
		case $_test_what in
		chromium)
			browser=""
			for _b in chromium chromium-browser; do
				command -v "$_b" >/dev/null 2>&1 && { browser=$_b; break; }
			done
			[ -n "$browser" ] || test_missing "chromium is not installed" chromium
			;;
		python3-yaml)
			py=""
			for _p in /usr/bin/python3 python3; do
				if command -v "$_p" >/dev/null 2>&1 && "$_p" -c 'import yaml; yaml.CSafeLoader' 2>/dev/null; then
					py=$_p
					break
				fi
			done
			[ -n "$py" ] || test_missing "python3-yaml (PyYAML with libyaml) is not installed" python3-yaml
			;;
		nodejs)
			command -v node >/dev/null 2>&1 || test_missing "nodejs is not installed" nodejs
			;;
		node-js-yaml)
			jsyaml=""
			for _j in js-yaml /usr/share/nodejs/js-yaml /usr/lib/nodejs/js-yaml; do
				if node -e "require('$_j')" 2>/dev/null; then
					jsyaml=$_j
					break
				fi
			done
			[ -n "$jsyaml" ] || test_missing "node-js-yaml is not installed" node-js-yaml
			;;
		postgresql)
			. tests/pg/server.sh
			_test_why=$(pg_missing) && test_missing "$_test_why" postgresql-15
			;;
		*)
			command -v "$_test_what" >/dev/null 2>&1 ||
				test_missing "$_test_what is not installed" "$(test_package_ "$_test_what")"
			;;
		esac
	done
}

test_wait_for() { # SECONDS COMMAND...
	_test_until=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_test_until" ] || return 1
		sleep 0.1
	done
}

test_done() {
	if [ "$test_status" -eq 0 ]; then
		echo "$test_name: ok${1:+ ($1)}"
	else
		echo "$test_name: FAIL"
	fi
	exit "$test_status"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-${test_name%.sh}.XXXXXX") || exit 1
trap 'test_cleanup_' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
