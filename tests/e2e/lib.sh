# SPDX-License-Identifier: MIT
# Shared by the end-to-end tests: run from ctest with PERFGUIDE set.
set -eu
: "${PERFGUIDE:?set PERFGUIDE to the perfguide binary}"
PG=$PERFGUIDE
T=$(mktemp -d "${TMPDIR:-/tmp}/pg-e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
# Tests run beside each other: a run does not wait for the machine to be
# quiet (--wait-quiet), unless a test says so.
export PERFGUIDE_WAIT_QUIET=0
# `perfguide run` adds to the default results store: keep it in the test's dir.
export XDG_DATA_HOME="$T/xdg"
# python3 helpers run from the source tree: leave no __pycache__ in it.
export PYTHONDONTWRITEBYTECODE=1
# The Python checks import what they share (pgcheck.py) from here.
PYTHONPATH="$(cd "$(dirname "$0")" && pwd)${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH
# Fast settings: these tests check behaviour and counts, not speed.
FAST="--runs 2 --min-time 0.01"
# A tree a test builds again only to run it is built without optimising (a
# third less CPU: make check's time, issue 39); gcc's -O2 warnings are the
# memcheck build's and e2e.musl's, which optimise.
BUILD_UNOPT="-DCMAKE_BUILD_TYPE=None"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
# deps_why PKG...: when scripts/deps.sh could not install one of PKG (it
# names them in PG_DEPS_MISSING, make check's record: a broken index, a
# package the archive lacks), prints that with apt's reason, for a skip.
deps_why() {
	[ -r "${PG_DEPS_MISSING:-}" ] || return 1
	for p in "$@"; do
		w=$(awk -F '\t' -v p="$p" '$1 == p { print $2; exit }' "$PG_DEPS_MISSING")
		[ -z "$w" ] || { echo "scripts/deps.sh could not install $p ($w)"; return 0; }
	done
	return 1
}
# need_cmd CMD PKG: skip unless CMD is installed, saying why it is not.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		skip "$(deps_why "$2" || echo "$1 is not installed (Debian's $2; scripts/deps.sh check installs it)")"
}
# nolib_tree: the tree built without the optional libraries that
# e2e.libc_only, e2e.crypto_nolib and e2e.storage_nolib are about (jansson,
# libcrypto, liburing, libaio; unoptimised). Under ctest the three share one
# build, e2e.nolib_build (a fixture: three builds of the tree were a minute of
# make check's CPU); by hand, a test builds its own in $T. Sets NB to the
# build directory; its configure output is $NB/cfg.log.
nolib_tree() {
	if [ -n "${PG_NOLIB_BUILD:-}" ] && [ -x "$PG_NOLIB_BUILD/perfguide" ]; then
		NB=$PG_NOLIB_BUILD
	else
		NB=$T/b
		nolib_build "$NB"
	fi
}
nolib_build() {
	: "${PG_SOURCE_DIR:?}"
	"${CMAKE_COMMAND:-cmake}" -S "$PG_SOURCE_DIR" -B "$1" $BUILD_UNOPT -DPG_WITH_JANSSON=OFF -DPG_WITH_CRYPTO=OFF \
		-DPG_WITH_LIBURING=OFF -DPG_WITH_LIBAIO=OFF -DBUILD_TESTING=OFF >"$1.cfg.log" 2>&1 ||
		fail "configure failed: $(tail -n 5 "$1.cfg.log")"
	mv "$1.cfg.log" "$1/cfg.log"
	"${CMAKE_COMMAND:-cmake}" --build "$1" -j 2 >"$1/build.log" 2>&1 ||
		fail "build without jansson, libcrypto, liburing and libaio failed: $(tail -n 20 "$1/build.log")"
}
need_json() { [ "${PG_HAVE_JANSSON:-ON}" = ON ] || skip "built without jansson"; }
need_python() { command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read results"; }

# expect_usage_error "what" args...: exit 2, exactly one line on stderr that
# starts with "perfguide:", nothing on stdout.
expect_usage_error() {
	what=$1; shift
	set +e
	"$PG" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	[ $rc -eq 2 ] || fail "$what: exit $rc, expected 2 (stderr: $(cat "$T/err"))"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$what: expected one line, got: $(cat "$T/err")"
	grep -q '^perfguide: ' "$T/err" || fail "$what: message does not start with 'perfguide:'"
	[ ! -s "$T/out" ] || fail "$what: printed on stdout: $(cat "$T/out")"
}

# start_peer NAME ARGS...: `perfguide serve -v ARGS` on 127.0.0.1, on a port
# the kernel picks, in the background (its output in $T/NAME.out and .err).
# Waits for its "listening on" line; sets PORT, LAST (its pid) and PIDS (all
# peers started, for the test's EXIT trap to kill).
PIDS=""
start_peer() {
	name=$1; shift
	"$PG" serve --bind 127.0.0.1 --port 0 -v "$@" >"$T/$name.out" 2>"$T/$name.err" &
	PIDS="$PIDS $!"
	LAST=$!
	i=0
	while ! grep -q '^listening on 127.0.0.1:' "$T/$name.out" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "$name: no 'listening on' line: $(cat "$T/$name.err")"
		kill -0 $LAST 2>/dev/null || fail "$name: serve exited: $(cat "$T/$name.err")"
		sleep 0.1
	done
	PORT=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/$name.out")
}
