# Shared by the end-to-end tests: run from ctest with PERFGUIDE set.
set -eu
: "${PERFGUIDE:?set PERFGUIDE to the perfguide binary}"
PG=$PERFGUIDE
T=$(mktemp -d "${TMPDIR:-/tmp}/pg-e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
# `perfguide run` adds to the default results store: keep it in the test's dir.
export XDG_DATA_HOME="$T/xdg"
# Fast settings: these tests check behaviour and counts, not speed.
FAST="--runs 2 --min-time 0.01"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
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
